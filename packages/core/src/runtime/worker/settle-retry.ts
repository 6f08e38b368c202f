import type { Clock } from '../../clock.js';
import type { Driver } from '../../contract/driver.js';
import type { Fence } from '../../contract/records.js';
import { isBerthError } from '../../errors/berth-error.js';
import { sleepFor } from '../timers.js';
import type { RuntimeLogger } from './logger.js';
import { errorFields } from './logger.js';

/** The wait after a settle's first failure, ms; doubled after each later one, up to the cap. */
export const SETTLE_RETRY_FIRST_MS = 25;
export const SETTLE_RETRY_MAX_MS = 2_000;

/** Where an attempt's lease stands: renewals move `until`, the settle retries read it. */
export interface LeaseClock {
  until: number;
}

/** A settle that kept failing until the lease ran out (or the worker stopped): it is given up. */
export class SettleGaveUp extends Error {
  override readonly name = 'SettleGaveUp';
  constructor(
    readonly tries: number,
    override readonly cause: unknown,
  ) {
    super(`the settle failed ${tries} times; given up`, { cause });
  }
}

/** One settle to send, and what its retries read. */
export interface RetrySettleInput<T> {
  readonly driver: Driver;
  readonly clock: Clock;
  readonly fence: Fence;
  readonly lease: LeaseClock;
  readonly visibilityTimeoutMs: number;
  readonly stopped: AbortSignal;
  readonly logger: RuntimeLogger;
  readonly send: () => Promise<T>;
  /** The first send already went out (in a batch) and failed with this: go on from there. */
  readonly failedOnce?: { readonly error: unknown };
}

/**
 * Sends a fenced settle (ack, nack, suspend) and, when the call fails, sends it again with
 * backoff for as long as the lease lasts, renewing the lease between tries. A fenced settle is
 * safe to repeat: one that landed before its answer was lost answers false the next time, and
 * never lands twice. Past the lease (or once `stopped` aborts), or at once for a refusal (any
 * BerthError but DRIVER_UNAVAILABLE), it throws SettleGaveUp.
 */
export async function retrySettle<T>(input: RetrySettleInput<T>): Promise<T> {
  const { clock, lease } = input;
  let failed = input.failedOnce;
  for (let tries = 1; ; tries += 1) {
    try {
      if (failed !== undefined) throw failed.error;
      return await input.send();
    } catch (error) {
      failed = undefined;
      const delay = Math.min(SETTLE_RETRY_FIRST_MS * 2 ** (tries - 1), SETTLE_RETRY_MAX_MS);
      if (!transient(error) || input.stopped.aborted || clock.now() + delay >= lease.until) {
        throw new SettleGaveUp(tries, error);
      }
      input.logger.warn('the settle failed; sending it again', { ...errorFields(error), tries });
      try {
        await sleepFor(clock, delay, input.stopped);
      } catch {
        throw new SettleGaveUp(tries, error);
      }
      await renew(input);
    }
  }
}

/** A refusal (a result too large, a closed driver) answers the same however often it is sent. */
const transient = (error: unknown): boolean =>
  !isBerthError(error) || error.code === 'DRIVER_UNAVAILABLE';

/** Extends the lease for the next try; a failure here is the next try's to find out. */
async function renew(settle: RetrySettleInput<unknown>): Promise<void> {
  const { driver, fence, lease, visibilityTimeoutMs } = settle;
  const at = settle.clock.now();
  try {
    if (await driver.extend(fence, visibilityTimeoutMs)) lease.until = at + visibilityTimeoutMs;
  } catch {
    // The extend failed as the settle did: the lease keeps its old end.
  }
}
