import type { Driver } from '../../contract/driver.js';
import { MAX_PROGRESS_BYTES } from '../../contract/limits.js';
import type { Fence, Json } from '../../contract/records.js';
import { screenProgress } from '../../screen/progress.js';
import { timeoutsFor } from '../timers.js';
import type { RuntimeLogger } from './logger.js';
import { errorFields } from './logger.js';

/** The most often one attempt writes its progress, ms: later values wait and coalesce. */
export const PROGRESS_INTERVAL_MS = 250;
/** The longest the settle waits for the attempt's last progress write, ms. */
export const PROGRESS_FLUSH_MS = 1_000;

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
  /** Default PROGRESS_FLUSH_MS. */
  readonly flushMs?: number;
}

export interface ProgressReporter {
  /**
   * Keeps `value` as the latest and writes it within the interval; throws JOB_INVALID at once
   * when it is not JSON within MAX_PROGRESS_BYTES. The answer never rejects: true once this value
   * or a later one landed, false when it was refused, failed, or came after `close`.
   */
  report(value: unknown): Promise<boolean>;
  /**
   * Refuses every later report, waits for the write in flight and then writes the pending value
   * now (unless `write` is false), each wait at most PROGRESS_FLUSH_MS: a hung backend never
   * holds the settle.
   */
  close(write: boolean): Promise<void>;
}

interface Pending {
  readonly value: Json;
  /** One answer per pending slot: every report a later one replaced shares it. */
  readonly answer: Promise<boolean>;
  readonly resolve: (landed: boolean) => void;
}

function slotFor(value: Json, replacing?: Pending): Pending {
  if (replacing !== undefined) return { ...replacing, value };
  let resolve: (landed: boolean) => void = () => {};
  const answer = new Promise<boolean>((done) => {
    resolve = done;
  });
  return { value, answer, resolve };
}

/**
 * One attempt's progress: only the latest value is kept, at most one write is in flight and
 * writes are at least `intervalMs` apart, so a handler reporting in a tight loop costs one round
 * trip per interval, holds one value, and never waits. Made on the first `ctx.progress` call.
 */
export function createProgressReporter(input: ProgressReporterInput): ProgressReporter {
  const { driver, fence } = input;
  const intervalMs = input.intervalMs ?? PROGRESS_INTERVAL_MS;
  const flushMs = input.flushMs ?? PROGRESS_FLUSH_MS;
  const schedule = timeoutsFor(driver.clock);
  let pending: Pending | undefined;
  let inFlight: Promise<void> | undefined;
  let lastWriteAt = Number.NEGATIVE_INFINITY;
  let cancelTimer: (() => void) | undefined;
  let closed = false;
  let refused = false;

  const dropPending = (): void => {
    pending?.resolve(false);
    pending = undefined;
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

  // Never rejects: a failed write is logged and kept for the next try.
  const send = async (taken: Pending): Promise<void> => {
    let landed: boolean;
    try {
      landed = !refused && (await driver.progress(fence, taken.value));
    } catch (error) {
      // Tried again at the next interval (or the close) unless a later value replaces it.
      input.logger.warn('writing the job’s progress failed; trying again', errorFields(error));
      taken.resolve(false);
      pending ??= slotFor(taken.value);
      return;
    }
    taken.resolve(landed);
    if (landed) told(() => input.onLanded(taken.value));
    else if (!refused) {
      refused = true;
      dropPending();
      if (!closed) told(input.onRefused);
    }
  };

  const told = (callback: () => void): void => {
    try {
      callback();
    } catch (error) {
      input.logger.error('a progress callback threw', errorFields(error));
    }
  };

  const arm = (): void => {
    if (pending === undefined || inFlight !== undefined || cancelTimer !== undefined) return;
    const wait = lastWriteAt + intervalMs - driver.clock.now();
    if (wait <= 0) write();
    else cancelTimer = schedule(write, wait);
  };

  /** Waits for the write in flight, at most `flushMs`; answers whether it ended in time. */
  const flushed = async (): Promise<boolean> => {
    if (inFlight === undefined) return true;
    let cancel = (): void => {};
    const late = new Promise<false>((resolve) => {
      cancel = schedule(() => resolve(false), flushMs);
    });
    const ended = await Promise.race([inFlight.then(() => true as const), late]);
    cancel();
    return ended;
  };

  return {
    report(value) {
      const screened = screenProgress(value, MAX_PROGRESS_BYTES);
      if (closed || refused) return Promise.resolve(false);
      const slot = slotFor(screened, pending);
      pending = slot;
      // May write at once, taking the slot.
      arm();
      return slot.answer;
    },
    async close(writeNow) {
      if (closed) return;
      closed = true;
      cancelTimer?.();
      cancelTimer = undefined;
      let inTime = await flushed();
      if (inTime && writeNow && pending !== undefined) {
        write();
        inTime = await flushed();
      }
      if (!inTime) {
        input.logger.warn(
          `the last progress write did not answer within ${flushMs} ms; settling without it`,
        );
      }
      dropPending();
    },
  };
}
