/** Who holds a lease, and until when (epoch ms on the driver's clock). */
export interface LeaseHolder {
  readonly holder: string;
  readonly expiresAt: number;
}

/**
 * Named, expiring, holder-owned leases and counted slots. The scheduler's leader holds a lease;
 * fleet-wide per-key concurrency holds slots. An expired lease or slot is free for anyone.
 * Kit group: `leases`.
 */
export interface LeaseStore {
  /**
   * Takes `name` for `holder` for `ttlMs`. True when it was free, expired, or already this
   * holder's (then it is renewed). False when another holder's unexpired lease stands.
   */
  acquire(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Extends `holder`'s unexpired lease; false when it is not (or no longer) theirs. */
  renew(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up; false when `holder` did not hold it. */
  release(name: string, holder: string): Promise<boolean>;
  /**
   * Reads `name`'s unexpired holder and expiry without changing anything; `undefined` when the
   * lease is free, released or expired. For operators (a dashboard showing the scheduler's
   * leader): deciding who leads is `acquire`'s job, never a read followed by a write.
   */
  holder(name: string): Promise<LeaseHolder | undefined>;
  /**
   * Takes one of `limit` slots of `key` for `holder` for `ttlMs`. True when the holder already
   * had one (renewed) or fewer than `limit` unexpired slots are held; false otherwise.
   */
  acquireSlot(key: string, limit: number, holder: string, ttlMs: number): Promise<boolean>;
  /** Extends `holder`'s unexpired slot of `key`; false when it has none. */
  renewSlot(key: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the slot up; false when `holder` held none. */
  releaseSlot(key: string, holder: string): Promise<boolean>;
}
