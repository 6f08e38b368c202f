import type { Clock } from '../clock.js';
import { timeoutsFor } from './timers.js';

export interface SerialLoop<T> {
  /** Runs the task now, after any run in flight: runs never overlap. */
  runNow(): Promise<T>;
  /**
   * Runs the task, then again every interval until `stop`. A second start does nothing; a start
   * while a stop is finishing waits for it, then starts one loop. `before` (a backend check)
   * runs in the start's turn: a stop that comes meanwhile waits for it, then stops the loop.
   */
  start(before?: () => Promise<void>): Promise<void>;
  /**
   * Stops the timer, waits for the run in flight (whatever it answered), then runs `onStopped`.
   * Starts and stops take turns: once this resolves no timed run of the stopped loop is left.
   */
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
  /** Runs at the end of each stop, before a start queued behind it (a lease release). */
  readonly onStopped?: () => Promise<void>;
}): SerialLoop<T> {
  const { clock, intervalMs, task, onError } = options;
  let running = false;
  // Each start opens a generation; a timer of an older one (a loop since stopped) does nothing.
  let generation = 0;
  let cancelTimer = (): void => {};
  let inFlight: Promise<unknown> = Promise.resolve();
  // Starts and stops, one after another.
  let turns: Promise<unknown> = Promise.resolve();

  const runNow = (): Promise<T> => {
    const next = inFlight.then(task, task);
    inFlight = next.catch(() => undefined);
    return next;
  };

  const loop = async (mine: number): Promise<void> => {
    if (!running || mine !== generation) return;
    try {
      await runNow();
    } catch (error) {
      onError(error);
    }
    if (running && mine === generation) {
      cancelTimer = timeoutsFor(clock)(() => void loop(mine), intervalMs);
    }
  };

  const inTurn = (change: () => Promise<void>): Promise<void> => {
    const next = turns.then(change);
    turns = next.catch(() => undefined);
    return next;
  };

  return {
    runNow,
    start: (before) =>
      inTurn(async () => {
        if (running) return;
        await before?.();
        running = true;
        generation += 1;
        await loop(generation);
      }),
    stop: () =>
      inTurn(async () => {
        running = false;
        generation += 1;
        cancelTimer();
        await inFlight;
        await options.onStopped?.();
      }),
  };
}
