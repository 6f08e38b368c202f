import type { Clock } from '../clock.js';
import { timeoutsFor } from './timers.js';

export interface SerialLoop<T> {
  /** Runs the task now, after any run in flight: runs never overlap. */
  runNow(): Promise<T>;
  /** Runs the task, then again every interval until `stop`. A second start does nothing. */
  start(): Promise<void>;
  /** Stops the timer and waits for the run in flight, whatever it answered. */
  stop(): Promise<void>;
}

/**
 * A task run one call at a time, on demand and on the clock's timers between `start` and
 * `stop`: the shape the scheduler's ticks and retention's sweeps share. A failed timed run goes
 * to `onError` and the loop goes on.
 */
export function createSerialLoop<T>(options: {
  readonly clock: Clock;
  readonly intervalMs: number;
  readonly task: () => Promise<T>;
  readonly onError: (error: unknown) => void;
}): SerialLoop<T> {
  const { clock, intervalMs, task, onError } = options;
  let running = false;
  let cancelTimer = (): void => {};
  let inFlight: Promise<unknown> = Promise.resolve();

  const runNow = (): Promise<T> => {
    const next = inFlight.then(task, task);
    inFlight = next.catch(() => undefined);
    return next;
  };

  const loop = async (): Promise<void> => {
    try {
      await runNow();
    } catch (error) {
      onError(error);
    }
    if (running) cancelTimer = timeoutsFor(clock)(() => void loop(), intervalMs);
  };

  return {
    runNow,
    async start() {
      if (running) return;
      running = true;
      await loop();
    },
    async stop() {
      running = false;
      cancelTimer();
      await inFlight;
    },
  };
}
