import type { EnqueueRequest, JobError, Json } from '../contract/records.js';

/** A job staged in the outbox: the enqueue request it becomes, under the id staging allocated. */
export interface StagedJob {
  readonly kind: 'job';
  /** The job's id in the queue: allocated at staging, so a second relay of it is `deduped`. */
  readonly id: string;
  readonly request: EnqueueRequest;
}

/** An event staged in the outbox: published once relayed (at least once, see the README). */
export interface StagedEvent {
  readonly kind: 'event';
  readonly id: string;
  readonly name: string;
  readonly payload: Json;
  readonly ttl?: number;
}

export type StagedRow = StagedJob | StagedEvent;

/** What a relay did with a batch's rows: relayed ones leave the outbox, refused ones stay dead. */
export interface BatchOutcome {
  readonly relayed: readonly string[];
  readonly dead: readonly { readonly id: string; readonly error: JobError }[];
}

/**
 * Rows taken for one relay: held (no other relay takes them) until `finish` lands the outcome,
 * or `abandon` gives them back untouched (the next take sees them again).
 */
export interface OutboxBatch {
  /** In staging order. */
  readonly rows: readonly StagedRow[];
  finish(outcome: BatchOutcome): Promise<void>;
  abandon(): Promise<void>;
}

/**
 * Where staged rows wait (an app's database, in its own transactions). A relay takes them in
 * staging order, several relays never the same row at once, and a row leaves only by `finish`.
 */
export interface OutboxStore {
  /** The oldest staged rows no other relay holds, at most `limit`; undefined when none. */
  take(limit: number): Promise<OutboxBatch | undefined>;
  /** Calls `listener` when rows may have been staged; answers how to stop listening. */
  onStaged?(listener: () => void): Promise<() => Promise<void>>;
}

/** What waits in an outbox, for operators. */
export interface OutboxStats {
  readonly staged: number;
  readonly dead: number;
  /** When the oldest row still waiting was staged, epoch ms; absent when none waits. */
  readonly oldestStagedAt?: number;
}

/** A row the queue refused, kept with the refusal. */
export interface DeadOutboxRow {
  readonly row: StagedRow;
  readonly refusal: { readonly code?: string; readonly message: string };
  readonly stagedAt: number;
  readonly deadAt: number;
}

/** An outbox as operators act on it (`berth outbox`, the dashboard's outbox page). */
export interface OutboxAdmin {
  /** Rows waiting and dead, and when the oldest waiting one was staged. */
  stats(): Promise<OutboxStats>;
  /** Rows the queue refused, oldest first, with the refusal (at most `limit`, default 100). */
  dead(options?: { readonly limit?: number }): Promise<readonly DeadOutboxRow[]>;
  /** Stages dead rows again (after the cause is fixed); answers the ids that were dead. */
  retry(ids: readonly string[]): Promise<readonly string[]>;
  /** Removes dead rows for good; answers the ids that were dead. */
  discard(ids: readonly string[]): Promise<readonly string[]>;
}
