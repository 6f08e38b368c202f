import { type ChildProcess, spawn } from 'node:child_process';

/** A worker process the crash scenario started, and what it printed. */
export interface WorkerProcess {
  readonly process: ChildProcess;
  /** Resolves once the process printed `line`; rejects when it exits first. */
  readonly printed: (line: string) => Promise<void>;
  readonly exited: Promise<number | null>;
}

/** Starts `node <execArgv> <script>` with `env` added to this process's environment. */
export function spawnWorker(
  script: string,
  execArgv: readonly string[],
  env: Readonly<Record<string, string>>,
): WorkerProcess {
  const child = spawn(process.execPath, [...execArgv, script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: { line: string; resolve: () => void; reject: (error: Error) => void }[] = [];
  const hasPrinted = (line: string) => out.split('\n').includes(line);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      for (const waiter of waiters.splice(0)) {
        waiter.reject(new Error(`worker exited (${code}) before "${waiter.line}":\n${err}`));
      }
      resolve(code);
    });
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const waiter of [...waiters]) {
      if (!hasPrinted(waiter.line)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  return {
    process: child,
    exited,
    printed: (line) =>
      hasPrinted(line)
        ? Promise.resolve()
        : new Promise((resolve, reject) => waiters.push({ line, resolve, reject })),
  };
}
