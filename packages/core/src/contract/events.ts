import type { Json } from './records.js';

/** A stored event; `TPayload` is its declared payload type (`defineEvent`), else `Json`. */
export interface EventRecord<TPayload = Json> {
  readonly id: string;
  readonly name: string;
  readonly payload: TPayload;
  readonly publishedAt: number;
  readonly expiresAt: number;
}

export interface PublishOptions {
  /** How long the event stays findable, ms (> 0). Default DEFAULT_EVENT_TTL_MS. */
  readonly ttl?: number;
}

export interface FindEventOptions {
  /** Only events with `publishedAt >= after`. */
  readonly after: number;
  /** Only events whose payload is an object holding each of these top-level keys, deep-equal. */
  readonly match?: Readonly<Record<string, Json>>;
  /** Events with these ids are skipped (the ones a run's earlier waits consumed); at most 1 000. */
  readonly exclude?: readonly string[];
}

/** Options of `events.purgeExpired`. */
export interface PurgeExpiredOptions {
  /** The most events this call removes: an integer 1..MAX_PURGE_LIMIT, default DEFAULT_PURGE_LIMIT. */
  readonly limit?: number;
}

/**
 * Events are STORED, not broadcast: a waiter that looks after the publish still finds it, until
 * it expires. Reads never answer an expired event (`expiresAt <= now`), purged or not.
 * Kit group: `events`.
 */
export interface EventStore {
  /**
   * Stores the event and, in the SAME atomic change, makes every `suspended` row waiting for
   * `name` (`suspend({ waitFor: name })`) due now.
   */
  publish(name: string, payload: Json, options?: PublishOptions): Promise<EventRecord>;
  /**
   * The first live event of `name` in publish order (the driver's insertion sequence, never
   * `publishedAt`) with `publishedAt >= after`, matching, and not excluded; or `undefined`.
   * Publishers on skewed clocks do not reorder it. Kit group `events`.
   */
  find(name: string, options: FindEventOptions): Promise<EventRecord | undefined>;
  /** Live events (all, or of `name`), in publish order (insertion sequence, never `publishedAt`). */
  list(name?: string): Promise<readonly EventRecord[]>;
  /**
   * Removes at most `limit` expired events (soonest expiry first) in bounded work and answers
   * exactly how many went; a caller that wants them all calls again until the answer is below
   * the limit. Core screens `limit` (JOB_INVALID naming `limit`) and always passes it filled in.
   * Kit groups `events`, `scale`.
   */
  purgeExpired(options?: PurgeExpiredOptions): Promise<number>;
}

/**
 * What a backend implements: `publish` gets the ttl filled in (DEFAULT_EVENT_TTL_MS when the
 * caller gave none) and stores `newEventRecord(name, payload, now, ttlMs)` from
 * `@berth/core/driver` (its id and expiry), `now` read once inside the change.
 */
export interface EventBackend extends Omit<EventStore, 'publish'> {
  publish(name: string, payload: Json, ttlMs: number): Promise<EventRecord>;
}
