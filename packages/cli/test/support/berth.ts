import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BerthErrorJSON } from '@berth/core';

/** The built binary, exactly as the package's `bin` names it. */
export const BIN = fileURLToPath(new URL('../../bin/berth.js', import.meta.url));

export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  /** Extra environment; BERTH_*, NO_COLOR and FORCE_COLOR are cleared unless given here. */
  readonly env?: Readonly<Record<string, string>>;
  /** Written to stdin, which is then closed (a pipe: never a terminal). */
  readonly input?: string;
  readonly cwd?: string;
  /** Another copy of the binary (an install elsewhere); default this package's. */
  readonly binary?: string;
}

/** The test process's environment without anything that would steer the CLI. */
export function cleanEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('BERTH_') || key === 'NO_COLOR' || key === 'FORCE_COLOR') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** Runs `node bin/berth.js ...args` and answers its exit code and output; never throws on exit 1/2. */
export function berth(args: readonly string[], options: RunOptions = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [options.binary ?? BIN, ...args],
      { env: cleanEnv(options.env), cwd: options.cwd, timeout: 20_000 },
      (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== 'number') {
          reject(new Error(`berth ${args.join(' ')} did not finish: ${error.message}\n${stderr}`));
          return;
        }
        resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr });
      },
    );
    child.stdin?.end(options.input ?? '');
  });
}

/** Runs with `--json` and parses stdout as the one document it must be. */
export async function berthJson<T = Record<string, unknown>>(
  args: readonly string[],
  options: RunOptions = {},
): Promise<{ code: number; doc: T; stderr: string }> {
  const ran = await berth([...args, '--json'], options);
  if (ran.code !== 0) {
    throw new Error(`berth ${args.join(' ')} --json exited ${ran.code}: ${ran.stderr}`);
  }
  return { code: ran.code, doc: JSON.parse(ran.stdout) as T, stderr: ran.stderr };
}

/** Parses the one JSON error document a refused `--json` run wrote to stderr. */
export function errorDoc(ran: Ran): BerthErrorJSON {
  return JSON.parse(ran.stderr) as BerthErrorJSON;
}
