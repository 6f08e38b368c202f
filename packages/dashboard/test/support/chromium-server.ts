import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';

/** Debian's Chromium: `.ci/run` installs it when missing. */
const CHROMIUM = '/usr/bin/chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's one Chromium, for `launchChromium()` to connect to. */
    chromiumWsEndpoint: string;
  }
}

/**
 * One Chromium for the whole run: a launch costs ~1.9 core-s, a connection and a context ~0.3,
 * and some 15 files each launched their own. Each file connects, and its `browser.close()` only
 * disconnects, dropping the contexts that connection opened.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does)`);
  }
  const server = await chromium.launchServer({
    executablePath: CHROMIUM,
    headless: true,
    // Loopback only: the default listens on every interface.
    host: '127.0.0.1',
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  return () => server.close();
}
