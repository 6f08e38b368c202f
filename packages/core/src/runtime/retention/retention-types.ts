import type { Driver } from '../../contract/driver.js';
import type { BackgroundLogger } from '../background-logger.js';

/** How long each TERMINAL state is kept after `finishedAt`, ms; an absent state is kept forever. */
export interface RetentionKeep {
  readonly completed?: number;
  readonly failed?: number;
  readonly dead?: number;
  readonly cancelled?: number;
}

export interface RetentionOptions {
  readonly driver: Driver;
  readonly keep: RetentionKeep;
  /** Also remove expired events (`driver.events.purgeExpired({ limit })`). Default true. */
  readonly eventPurge?: boolean;
  /** How often `start()` sweeps, ms. */
  readonly intervalMs: number;
  /**
   * Rows (or events) one purge call removes: a sweep calls `purge`/`purgeExpired` with this
   * `limit` again and again until a call answers fewer, yielding between calls, so no single
   * statement grows with the backlog. An integer 1..MAX_PURGE_LIMIT; default 1000.
   */
  readonly batchSize?: number;
  readonly logger?: BackgroundLogger;
}

/** What one sweep removed. */
export interface RetentionSweep {
  /** Job rows removed (their steps went with them). */
  readonly purged: number;
  readonly eventsPurged: number;
  /**
   * Lifecycle events past the driver's `lifecycleRetention` removed (`driver.lifecycle.trim`,
   * called in batches as `purge` is): pg's; the other drivers trim as they write and count 0.
   */
  readonly lifecycleTrimmed: number;
}

export interface Retention {
  /** Sweeps now, then every `intervalMs` until stopped. */
  start(): Promise<void>;
  /** Stops sweeping and waits for a sweep in flight. */
  stop(): Promise<void>;
  /** One sweep now. */
  runOnce(): Promise<RetentionSweep>;
}
