import { setTimeout as sleep } from 'node:timers/promises';

// Waits for tests on a real clock. A fixed pause is `setTimeout` of `node:timers/promises`; these
// wait for a condition instead, so a slow machine only waits longer and a fast one not at all.

/** How long a wait polls, how often, and what its error says when it gives up. */
export interface PollOptions {
  /** Gives up after this long: only a failing test waits it out. Default 10 s. */
  readonly withinMs?: number;
  /** The pause between two checks. Default 25 ms. */
  readonly everyMs?: number;
  /** What is awaited, named in the error. */
  readonly what?: string;
  /** What was seen by then, appended to the error. */
  readonly detail?: () => string;
}

/**
 * Waits until `done` answers true, checking again every `everyMs`; past `withinMs` it throws
 * naming `what`. A `done` that throws fails the wait at once. (`until` of this package waits for
 * a server to answer instead, and counts a throw as "not yet".)
 */
export async function pollUntil(
  done: () => boolean | Promise<boolean>,
  options: PollOptions = {},
): Promise<void> {
  const { withinMs = 10_000, everyMs = 25, what = 'the condition', detail } = options;
  const deadline = Date.now() + withinMs;
  while (!(await done())) {
    if (Date.now() > deadline) {
      const seen = detail === undefined ? '' : ` ${detail()}`;
      throw new Error(`${what}: not within ${withinMs} ms${seen}`);
    }
    await sleep(everyMs);
  }
}

/** How long `eventually` retries, and how often. */
export interface RetryOptions {
  /** Rethrows the call's last error after this long. Default 15 s. */
  readonly withinMs?: number;
  /** The pause after each failed call. Default 100 ms. */
  readonly everyMs?: number;
}

/**
 * Calls `call` until it answers, and answers that: for a client that reconnects by itself after
 * its server came back. Past `withinMs` the last error is thrown as it was.
 */
export async function eventually<T>(
  call: () => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const { withinMs = 15_000, everyMs = 100 } = options;
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(everyMs);
    }
  }
}
