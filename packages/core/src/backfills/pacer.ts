import type { BackfillRateLimit } from './types.js';

/**
 * Paces a run to `rows` per `intervalMs`: after each pass the runner waits until the rows done
 * so far are within the rate since the runner began. One timer per wait, none without a limit.
 */
export class BackfillPacer {
  readonly #limit: BackfillRateLimit | undefined;
  readonly #began = performance.now();
  #rows = 0;

  constructor(limit: BackfillRateLimit | undefined) {
    this.#limit = limit;
  }

  /** Counts a committed pass's rows. */
  count(rows: number): void {
    this.#rows += rows;
  }

  /** Waits until the next pass keeps the pace; resolves early (and the runner stops) on abort. */
  async wait(signal: AbortSignal): Promise<void> {
    const limit = this.#limit;
    if (limit === undefined) return;
    const dueAt = this.#began + (this.#rows / limit.rows) * limit.intervalMs;
    // A timer may fire a fraction of a ms early: look again until the instant has passed.
    for (let waitMs = dueAt - performance.now(); waitMs > 0 && !signal.aborted; ) {
      await sleep(waitMs, signal);
      waitMs = dueAt - performance.now();
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.ceil(ms));
    signal.addEventListener('abort', done, { once: true });
  });
}
