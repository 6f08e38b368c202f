import type { Clock } from '../../clock.js';
import { timeoutsFor } from '../timers.js';

/**
 * Runs `fn` on a signal that aborts with the parent's reason, or with `timeoutError()` once
 * `timeoutMs` passes on the clock's timers. The answer settles at the first of: `fn` settling,
 * the parent aborting, the timeout; a function that ignores its signal is left behind.
 */
export async function runWithTimeout<T>(input: {
  clock: Clock;
  parent: AbortSignal;
  timeoutMs: number | undefined;
  timeoutError: () => Error;
  fn: (signal: AbortSignal) => T | Promise<T>;
}): Promise<T> {
  const controller = new AbortController();
  const { parent } = input;
  if (parent.aborted) throw parent.reason;
  let cancelTimer = (): void => {};
  let onParentAbort = (): void => {};
  const stopped = new Promise<never>((_, reject) => {
    onParentAbort = () => {
      controller.abort(parent.reason);
      reject(parent.reason);
    };
    parent.addEventListener('abort', onParentAbort, { once: true });
    if (input.timeoutMs !== undefined) {
      cancelTimer = timeoutsFor(input.clock)(() => {
        const error = input.timeoutError();
        controller.abort(error);
        reject(error);
      }, input.timeoutMs);
    }
  });
  // The loser of the race must not surface as an unhandled rejection.
  stopped.catch(() => {});
  try {
    return await Promise.race([Promise.resolve().then(() => input.fn(controller.signal)), stopped]);
  } finally {
    cancelTimer();
    parent.removeEventListener('abort', onParentAbort);
  }
}
