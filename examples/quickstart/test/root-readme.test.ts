import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readmeBlock } from '@berth/test-servers';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const here = fileURLToPath(new URL('..', import.meta.url));

/** The fenced block after the first-job marker, exactly as the root README shows it. */
const firstJob = (): string =>
  readmeBlock(new URL('../../../README.md', import.meta.url), 'first-job');

it('the root README first-job example runs as written and completes its job', async () => {
  // Written inside this package so `@berth/*` resolve as they would in an app.
  const file = `${here}readme-first-job.generated.ts`;
  writeFileSync(file, firstJob());
  try {
    const { stdout } = await run('pnpm', ['exec', 'tsx', '--conditions=@berth/source', file], {
      cwd: here,
      timeout: 30_000,
    });
    expect(stdout.trim()).toBe("completed { sentTo: 'u_1' }");
  } finally {
    rmSync(file, { force: true });
  }
});
