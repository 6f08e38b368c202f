import { spawnSync } from 'node:child_process';

const cleanups = new Set<() => void>();

/**
 * Runs `cleanup` (synchronously) if this process exits while the server still runs, e.g. a test
 * runner that gives up on a timed-out run: no server outlives the suite. Answers the unregister.
 */
export function onExit(cleanup: () => void): () => void {
  if (cleanups.size === 0) process.once('exit', runAll);
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

function runAll(): void {
  for (const cleanup of cleanups) {
    try {
      cleanup();
    } catch {
      // best effort: the process is going away
    }
  }
}

/** A command run to its end before the process exits. */
export function runNow(command: string, args: readonly string[]): void {
  spawnSync(command, args, { stdio: 'ignore' });
}
