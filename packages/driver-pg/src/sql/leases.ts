/**
 * Leases (one row per name) and slots (one row per holder, one per key): each call is ONE
 * statement deciding from one locked row (the lease's, the slot key's), so two callers can never
 * both be granted.
 * An entry is expired when expires_at <= now.
 */
export function leasesSql(s: string) {
  return {
    /** Free, expired or already this holder's. $1 name, $2 holder, $3 now, $4 expires_at. */
    acquire: `
      INSERT INTO ${s}.leases AS l (name, holder, expires_at) VALUES ($1, $2, $4)
      ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
      WHERE l.expires_at <= $3::bigint OR l.holder = excluded.holder
      RETURNING 1 AS granted`,

    /** $1 name, $2 holder, $3 now, $4 expires_at. */
    renew: `
      UPDATE ${s}.leases SET expires_at = $4::bigint
      WHERE name = $1 AND holder = $2 AND expires_at > $3::bigint
      RETURNING 1 AS granted`,

    /** $1 name, $2 holder, $3 now. */
    release: `
      DELETE FROM ${s}.leases WHERE name = $1 AND holder = $2 AND expires_at > $3::bigint
      RETURNING 1 AS granted`,

    /** The unexpired holder, read only. $1 name, $2 now. */
    holder: `
      SELECT holder, expires_at FROM ${s}.leases WHERE name = $1 AND expires_at > $2::bigint`,

    /**
     * Renews the holder's unexpired slot, or takes one while fewer than $2 are unexpired (see
     * migration 7's acquire_slot). $1 key, $2 limit, $3 holder, $4 now, $5 expires_at, $6 sweep.
     */
    acquireSlot: `
      SELECT 1 AS granted
      WHERE ${s}.acquire_slot($1::text, $2::int, $3::text, $4::bigint, $5::bigint, $6::int)`,

    /** One row per holder: the key's row only learns the later expiry. $1 key, $2 holder, $3 now, $4 expires_at. */
    renewSlot: `
      WITH renewed AS (
        UPDATE ${s}.slot_holders SET expires_at = $4::bigint
        WHERE key = $1 AND holder = $2 AND expires_at > $3::bigint
        RETURNING 1
      ), raised AS (
        UPDATE ${s}.slot_keys SET expires_at = greatest(expires_at, $4::bigint)
        WHERE key = $1 AND EXISTS (SELECT 1 FROM renewed)
        RETURNING 1
      )
      SELECT 1 AS granted FROM renewed`,

    /** Gives the holder's unexpired slot back (migration 7's release_slot). $1 key, $2 holder, $3 now, $4 sweep. */
    releaseSlot: `
      SELECT 1 AS granted WHERE ${s}.release_slot($1::text, $2::text, $3::bigint, $4::int)`,
  };
}
