import type { Driver } from '../../contract/driver.js';
import { MAX_PROGRESS_BYTES } from '../../contract/limits.js';
import type { Fence, Json } from '../../contract/records.js';
import { screenProgress } from '../../screen/progress.js';
import { timeoutsFor } from '../timers.js';
import type { RuntimeLogger } from './logger.js';
import { errorFields } from './logger.js';

/** The most often one attempt writes its progress, ms: later values wait and coalesce. */
export const PROGRESS_INTERVAL_MS = 250;

export interface ProgressReporterInput {
  readonly driver: Driver;
  readonly fence: Fence;
  readonly logger: RuntimeLogger;
  /** Told each value that landed, in order (the worker's `progress` event). */
  readonly onLanded: (value: Json) => void;
  /** Told once, when a write is refused: the fence no longer holds. */
  readonly onRefused: () => void;
  /** Default PROGRESS_INTERVAL_MS. */
  readonly intervalMs?: number;
}

export interface ProgressReporter {
  /**
   * Keeps `value` as the latest and writes it within the interval; throws JOB_INVALID at once
   * when it is not JSON within MAX_PROGRESS_BYTES. The answer never rejects: true once this value
   * or a later one landed, false when it was refused, failed, or came after `close`.
   */
  report(value: unknown): Promise<boolean>;
  /** Writes the pending value now (unless `write` is false), waits for the write in flight, and refuses every later report. */
  close(write: boolean): Promise<void>;
}

interface Pending {
  readonly value: Json;
  readonly waiters: ((landed: boolean) => void)[];
}

/**
 * One attempt's progress: only the latest value is kept, at most one write is in flight and
 * writes are at least `intervalMs` apart, so a handler reporting in a tight loop costs one round
 * trip per interval and never waits for one. Made on the first `ctx.progress` call only.
 */
export function createProgressReporter(input: ProgressReporterInput): ProgressReporter {
  const { driver, fence } = input;
  const intervalMs = input.intervalMs ?? PROGRESS_INTERVAL_MS;
  const schedule = timeoutsFor(driver.clock);
  let pending: Pending | undefined;
  let inFlight: Promise<void> | undefined;
  let lastWriteAt = Number.NEGATIVE_INFINITY;
  let cancelTimer: (() => void) | undefined;
  let closed = false;
  let refused = false;

  const settle = (waiters: Pending['waiters'], landed: boolean) => {
    for (const resolve of waiters) resolve(landed);
  };

  const write = (): void => {
    cancelTimer?.();
    cancelTimer = undefined;
    const taken = pending;
    if (taken === undefined || inFlight !== undefined) return;
    pending = undefined;
    lastWriteAt = driver.clock.now();
    inFlight = send(taken).finally(() => {
      inFlight = undefined;
      if (!closed) arm();
    });
  };

  const send = async (taken: Pending): Promise<void> => {
    try {
      const landed = !refused && (await driver.progress(fence, taken.value));
      settle(taken.waiters, landed);
      if (landed) input.onLanded(taken.value);
      else if (!refused) {
        refused = true;
        if (pending !== undefined) settle(pending.waiters, false);
        pending = undefined;
        if (!closed) input.onRefused();
      }
    } catch (error) {
      // Tried again at the next interval (or the close) unless a later value replaces it.
      input.logger.warn('writing the job’s progress failed; trying again', errorFields(error));
      settle(taken.waiters, false);
      pending ??= { value: taken.value, waiters: [] };
    }
  };

  const arm = (): void => {
    if (pending === undefined || inFlight !== undefined || cancelTimer !== undefined) return;
    const wait = lastWriteAt + intervalMs - driver.clock.now();
    if (wait <= 0) write();
    else cancelTimer = schedule(write, wait);
  };

  return {
    report(value) {
      const screened = screenProgress(value, MAX_PROGRESS_BYTES);
      if (closed || refused) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const waiters = pending?.waiters ?? [];
        waiters.push(resolve);
        pending = { value: screened, waiters };
        arm();
      });
    },
    async close(writeNow) {
      if (closed) return;
      closed = true;
      cancelTimer?.();
      cancelTimer = undefined;
      await inFlight;
      if (writeNow && pending !== undefined) {
        write();
        await inFlight;
      }
      if (pending !== undefined) settle(pending.waiters, false);
      pending = undefined;
    },
  };
}
