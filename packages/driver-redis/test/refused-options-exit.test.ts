import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { serverUrl } from '@berth/test-servers';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));

/** Runs `createRedisDriver(options)` in a process of its own; answers its exit and output. */
function constructIn(options: string): Promise<{ code: number | null; out: string }> {
  const script = `
    const { createRedisDriver } = await import(${JSON.stringify(entry)});
    try { createRedisDriver(${options}); console.log('accepted'); }
    catch (error) { console.log(error.code); }`;
  const child = spawn(
    process.execPath,
    [
      '--conditions=@berth/source',
      '--import',
      createRequire(import.meta.url).resolve('tsx/esm'),
      '--input-type=module',
      '-e',
      script,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  // A refused construction that left a connection open keeps the process alive: never exits.
  const hung = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearTimeout(hung);
      resolve({ code, out: out.trim() });
    });
  });
}

describe('a refused createRedisDriver', () => {
  it('leaves no connection open: a process whose driver options were refused exits by itself', async () => {
    const url = await serverUrl('redis');
    const result = await constructIn(`{ url: ${JSON.stringify(url)}, cursorSecret: 'short' }`);
    expect(result).toEqual({ code: 0, out: 'CONFIG_INVALID' });
  }, 30_000);
});
