import type { Driver, Unsubscribe } from '../../contract/driver.js';
import {
  type LifecycleEvent,
  type LifecycleReadRequest,
  MAX_LIFECYCLE_PAGE,
} from '../../contract/lifecycle.js';
import { isBerthError } from '../../errors/berth-error.js';
import { configInvalid } from '../../errors/refusals.js';

/** How often a caught-up tail reads again when no settle notice woke it first, ms. */
export const DEFAULT_TAIL_POLL_MS = 250;
/** The shortest `pollMs` a tail takes. */
export const MIN_TAIL_POLL_MS = 10;
/** The longest `pollMs` a tail takes. */
export const MAX_TAIL_POLL_MS = 60_000;

export interface LifecycleTailOptions extends Omit<LifecycleReadRequest, 'after' | 'limit'> {
  /**
   * Where the tail starts: `'end'` (default: only what happens from now on), `'start'` (the
   * oldest event kept), or a `position` an event or page answered (the events after it: resume
   * where a previous tail stopped, e.g. after a restart).
   */
  readonly from?: string;
  /** How often a caught-up tail reads again, ms (MIN..MAX_TAIL_POLL_MS). Default DEFAULT_TAIL_POLL_MS. */
  readonly pollMs?: number;
  /** Ends the tail: the loop over it finishes. */
  readonly signal?: AbortSignal;
}

function screenPollMs(value: unknown): number {
  if (value === undefined) return DEFAULT_TAIL_POLL_MS;
  if (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= MIN_TAIL_POLL_MS &&
    value <= MAX_TAIL_POLL_MS
  ) {
    return value;
  }
  throw configInvalid({
    option: 'pollMs',
    reason: `is ${String(value)}`,
    allowed: `takes a whole number of milliseconds from ${MIN_TAIL_POLL_MS} to ${MAX_TAIL_POLL_MS}`,
    example: "client.lifecycle.tail({ queue: 'emails', pollMs: 500 })",
  });
}

/** Resolves after `ms`, at a settle notice, or on abort, whichever comes first. */
class Waker {
  private wake: (() => void) | undefined;
  private pending = false;

  notice(): void {
    this.pending = true;
    this.wake?.();
  }

  async sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (this.pending || signal?.aborted === true) {
      this.pending = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
    this.pending = false;
  }
}

/**
 * Every lifecycle event matching `options`, as they happen, until `signal` aborts or the loop
 * breaks. Reads page by page; once caught up it reads again every `pollMs`, or at once when the
 * driver tells of a settle (`watchSettles`). A read the backend could not answer
 * (DRIVER_UNAVAILABLE) is retried at the next poll from the same position, so a reconnect loses
 * nothing; any other refusal ends the tail by throwing.
 */
export async function* tailLifecycle(
  driver: Driver,
  options: LifecycleTailOptions = {},
): AsyncGenerator<LifecycleEvent, void, undefined> {
  const { from = 'end', pollMs: givenPollMs, signal, ...filters } = options;
  const pollMs = screenPollMs(givenPollMs);
  let after = from === 'end' ? await driver.lifecycle.end() : from === 'start' ? undefined : from;
  // A function, so each look reads the signal afresh (an abort lands between awaits).
  const aborted = () => signal?.aborted === true;
  const waker = new Waker();
  let unsubscribe: Unsubscribe | undefined;
  try {
    unsubscribe = await driver.watchSettles?.(() => waker.notice());
  } catch {
    // A hint only: without it the tail polls.
  }
  try {
    while (!aborted()) {
      let caughtUp = false;
      try {
        const page = await driver.lifecycle.read({ ...filters, after, limit: MAX_LIFECYCLE_PAGE });
        for (const event of page.events) {
          yield event;
          if (aborted()) return;
        }
        after = page.next ?? after;
        caughtUp = page.caughtUp;
      } catch (error) {
        if (!isBerthError(error, 'DRIVER_UNAVAILABLE')) throw error;
        caughtUp = true;
      }
      if (caughtUp) await waker.sleep(pollMs, signal);
    }
  } finally {
    await unsubscribe?.().catch(() => undefined);
  }
}
