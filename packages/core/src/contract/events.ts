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
  /** The earliest live event of `name` matching, by publish order; or `undefined`. */
  find(name: string, options: FindEventOptions): Promise<EventRecord | undefined>;
  /** Live events (all, or of `name`), in publish order. */
  list(name?: string): Promise<readonly EventRecord[]>;
  /** Removes every expired event; answers how many went. */
  purgeExpired(): Promise<number>;
}
