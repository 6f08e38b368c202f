import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const here = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

/** The fenced block after the first-job marker, exactly as the root README shows it. */
function firstJob(): string {
  const marker = readme.indexOf('<!-- first-job -->');
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(marker));
  if (marker < 0 || block?.[1] === undefined) throw new Error('README has no first-job block');
  return block[1];
}

it('the root README first-job example runs as written and completes its job', async () => {
  // Written inside this package so `@berth/*` resolve as they would in an app.
  const file = `${here}readme-first-job.generated.ts`;
  writeFileSync(file, firstJob());
  try {
    const { stdout } = await run('pnpm', ['exec', 'tsx', '--conditions=source', file], {
      cwd: here,
      timeout: 30_000,
    });
    expect(stdout.trim()).toBe("completed { sentTo: 'u_1' }");
  } finally {
    rmSync(file, { force: true });
  }
});
