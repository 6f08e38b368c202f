import type { Clock } from '../clock.js';

/** Schedules a callback; answers a function that cancels it. */
export type ScheduleTimeout = (fn: () => void, ms: number) => () => void;

const realTimeout: ScheduleTimeout = (fn, ms) => {
  const handle = setTimeout(fn, ms);
  return () => clearTimeout(handle);
};

/**
 * The timers the runtime waits with. A clock that schedules its own timers (the manual test
 * clock) drives them, so tests move time by hand; any other clock uses real timers.
 */
export function timeoutsFor(clock: Clock): ScheduleTimeout {
  const own = (clock as Clock & { setTimeout?: ScheduleTimeout }).setTimeout;
  return typeof own === 'function' ? own.bind(clock) : realTimeout;
}

/** Resolves after `ms` on the clock's timers, or rejects with the signal's reason when aborted. */
export function sleepFor(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      cancel();
      reject(signal?.reason);
    };
    const cancel = timeoutsFor(clock)(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
