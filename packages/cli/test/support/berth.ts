import { execFile } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { BerthErrorJSON } from '@berth/core';
import { run } from '../../src/main.js';

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
  /** Runs the built binary in a process of its own (`berthProcess`); implied by the two above. */
  readonly process?: boolean;
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

/** How long one run may take before the test fails: it bounds a hang, it asserts no speed. */
const RUN_TIMEOUT_MS = 20_000;

/**
 * Runs `node bin/berth.js ...args`, the built binary as a user runs it, and answers its exit code
 * and output; never throws on exit 1/2. A process of its own ends only once the command closed
 * everything it opened: `roundTrip` runs every operator command this way once per backend.
 */
export function berthProcess(args: readonly string[], options: RunOptions = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [options.binary ?? BIN, ...args],
      { env: cleanEnv(options.env), cwd: options.cwd, timeout: RUN_TIMEOUT_MS },
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

/** Whether an in-process run is under way: runs take turns, each with process.env as its own. */
let inProcess = false;

/** A stream that keeps what is written to it, as a pipe to a reader would (never a terminal). */
function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * Runs `berth ...args` in this process: the CLI's `run` (the function the binary calls) with
 * streams and an environment of its own, as `berthProcess` gives them, without the ~0.5 CPU-s a
 * node process takes to start and load the CLI. `process`, `binary` or `cwd` (another install,
 * another working directory) run a process.
 */
export async function berth(args: readonly string[], options: RunOptions = {}): Promise<Ran> {
  if (options.process === true || options.binary !== undefined || options.cwd !== undefined) {
    return berthProcess(args, options);
  }
  if (inProcess) {
    throw new Error("berth(): one in-process run at a time (its environment is the process's)");
  }
  inProcess = true;
  const stdout = collector();
  const stderr = collector();
  // commander reads an option's environment variable (BERTH_URL) from process.env itself: the
  // run's environment is swapped in for the run (a worker runs one test at a time) and put back.
  const restore = swapEnvironment(cleanEnv(options.env));
  const io = {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: Readable.from(options.input === undefined ? [] : [options.input]),
    env: process.env,
  };
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`berth ${args.join(' ')} did not finish in ${RUN_TIMEOUT_MS} ms`)),
      RUN_TIMEOUT_MS,
    );
  });
  try {
    const code = await Promise.race([run(args, io), hung]);
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    clearTimeout(timer);
    restore();
    inProcess = false;
  }
}

/** Makes process.env exactly `env`; answers what puts the old one back. */
function swapEnvironment(env: NodeJS.ProcessEnv): () => void {
  const before = { ...process.env };
  const assign = (to: NodeJS.ProcessEnv) => {
    for (const key of Object.keys(process.env)) if (!(key in to)) delete process.env[key];
    Object.assign(process.env, to);
  };
  assign(env);
  return () => assign(before);
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
