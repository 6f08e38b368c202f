import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `pnpm test` builds first; a bare `vitest run` on a fresh clone builds the page here. */
export default async function setup(): Promise<void> {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  if (existsSync(`${root}dist/ui/index.html`)) return;
  const { build } = await import('vite');
  await build({ configFile: `${root}vite.config.ts`, logLevel: 'warn' });
}
