import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { inject } from 'vitest';

/** Screenshots the browser tests take, one per page (gitignored). */
export function artifactDir(name: string): string {
  const dir = fileURLToPath(new URL(`../../test-artifacts/${name}/`, import.meta.url));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * A connection to the run's one Chromium (started by `chromium-server.ts`): the caller's
 * `close()` disconnects and drops the contexts it opened, leaving the browser to the other files.
 */
export async function launchChromium(): Promise<Browser> {
  const endpoint = inject('chromiumWsEndpoint');
  if (endpoint === undefined) {
    throw new Error(
      'no Chromium server: run under the dashboard vitest config (chromium-server.ts)',
    );
  }
  return chromium.connect(endpoint);
}
