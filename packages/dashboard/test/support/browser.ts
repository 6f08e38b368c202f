import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium: `.ci/run` installs it when missing. */
export const CHROMIUM = '/usr/bin/chromium';

/** Screenshots the browser tests take, one per page (gitignored). */
export function artifactDir(name: string): string {
  const dir = fileURLToPath(new URL(`../../test-artifacts/${name}/`, import.meta.url));
  mkdirSync(dir, { recursive: true });
  return dir;
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
