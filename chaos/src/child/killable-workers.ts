import { type ChildProcess, spawn } from 'node:child_process';
import { childArgs } from '../child-command.ts';

/** The worker processes of a kill run: started from one entry and spec, replaced as it kills. */
export interface KillableWorkers {
  /** The processes alive now. */
  readonly alive: ReadonlySet<ChildProcess>;
  /** Starts one more (the spec as its one argument, stderr shown, an IPC channel). */
  spawn(): void;
  /** SIGKILLs every one alive. */
  killAll(): void;
}

export function killableWorkers(entry: URL, spec: object): KillableWorkers {
  const alive = new Set<ChildProcess>();
  const argument = JSON.stringify(spec);
  return {
    alive,
    spawn() {
      const child = spawn(process.execPath, [...childArgs(entry), argument], {
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      alive.add(child);
      child.once('exit', () => alive.delete(child));
    },
    killAll() {
      for (const worker of alive) worker.kill('SIGKILL');
    },
  };
}
