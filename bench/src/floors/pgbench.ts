import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FloorPhase } from '../systems/types.ts';

export const hasPgbench = (): boolean => spawnSync('pgbench', ['--version']).status === 0;

/**
 * Runs `script` `transactions` times on one connection (`-M prepared`, no vacuum). Answers
 * pgbench's own time without its connection set-up, and its CPU: the shell's `times` after
 * pgbench exits reports the CPU of the children it waited for.
 */
export async function pgbench(
  url: string,
  script: string,
  transactions: number,
  sessionOptions: string,
): Promise<FloorPhase> {
  const dir = await mkdtemp(join(tmpdir(), 'berth-bench-'));
  try {
    const file = join(dir, 'script.sql');
    await writeFile(file, script);
    const args = [
      '-n',
      '-M',
      'prepared',
      '-c',
      '1',
      '-j',
      '1',
      '-t',
      String(transactions),
      '-f',
      file,
      url,
    ];
    const { stdout, stderr, code } = await run(sessionOptions, 'sh', [
      '-c',
      'pgbench "$@"; s=$?; times >&2; exit $s',
      'sh',
      ...args,
    ]);
    if (code !== 0) throw new Error(`pgbench failed (${code}):\n${stderr}${stdout}`);
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1];
    if (tps === undefined) throw new Error(`pgbench printed no tps:\n${stdout}`);
    return { wallMs: (transactions / Number(tps)) * 1_000, helperCpuUs: childrenCpuUs(stderr) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The children's user + system time from the last line `times` printed ("0m1.23s 0m0.45s"). */
function childrenCpuUs(stderr: string): number {
  const last = stderr.trim().split('\n').at(-1) ?? '';
  let seconds = 0;
  for (const [, minutes, secs] of last.matchAll(/(\d+)m([\d.]+)s/g))
    seconds += Number(minutes) * 60 + Number(secs);
  return seconds * 1e6;
}

function run(sessionOptions: string, command: string, args: readonly string[]) {
  return new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PGOPTIONS: sessionOptions },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ stdout, stderr, code }));
  });
}
