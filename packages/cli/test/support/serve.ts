import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { BIN, cleanEnv } from './berth.js';

/** A long-running `berth` (`berth dashboard`), its output so far, and how it ended. */
export interface Running {
  readonly child: ChildProcess;
  output(): { stdout: string; stderr: string };
  /** Resolves with the first match of `pattern` (on stdout unless told); rejects if the process ends first. */
  waitFor(pattern: RegExp, from?: 'stdout' | 'stderr'): Promise<RegExpExecArray>;
  /** Sends `signal` and answers the exit code (or the signal's name when one killed it). */
  stop(signal: NodeJS.Signals): Promise<number | string>;
}

export function start(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Running {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return {
    child,
    output: () => ({ stdout, stderr }),
    waitFor: (pattern, from = 'stdout') =>
      new Promise((resolve, reject) => {
        const stream = child[from];
        const check = () => {
          const found = pattern.exec(from === 'stdout' ? stdout : stderr);
          if (found === null) return;
          stream.off('data', check);
          resolve(found);
        };
        stream.on('data', check);
        check();
        void exited.then(([code]) =>
          reject(new Error(`berth ${args.join(' ')} exited ${code} first:\n${stdout}${stderr}`)),
        );
      }),
    async stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const [code, killedBy] = await exited;
      return code ?? killedBy ?? 'unknown';
    },
  };
}
