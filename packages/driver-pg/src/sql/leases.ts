/**
 * Leases (one row per name) and slots (one row per key, holder -> expiresAt): each call is ONE
 * statement deciding from one locked row, so two callers can never both be granted.
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
     * Renews the holder's unexpired slot, or adds one while fewer than $2 are unexpired; expired
     * entries are dropped on the way. $1 key, $2 limit, $3 holder, $4 now, $5 expires_at.
     */
    acquireSlot: `
      INSERT INTO ${s}.slots AS t (key, holders)
      VALUES ($1, jsonb_build_object($3::text, $5::bigint))
      ON CONFLICT (key) DO UPDATE SET holders = (
        SELECT coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb)
        FROM jsonb_each(t.holders) e
        WHERE (e.value)::bigint > $4::bigint AND e.key <> $3::text
      ) || jsonb_build_object($3::text, $5::bigint)
      WHERE (t.holders ? $3::text AND (t.holders ->> $3::text)::bigint > $4::bigint)
        OR (SELECT count(*) FROM jsonb_each(t.holders) e WHERE (e.value)::bigint > $4::bigint)
          < $2::int
      RETURNING 1 AS granted`,

    /** $1 key, $2 holder, $3 now, $4 expires_at. */
    renewSlot: `
      UPDATE ${s}.slots SET holders = jsonb_set(holders, ARRAY[$2::text], to_jsonb($4::bigint))
      WHERE key = $1 AND holders ? $2::text AND (holders ->> $2::text)::bigint > $3::bigint
      RETURNING 1 AS granted`,

    /** $1 key, $2 holder, $3 now. */
    releaseSlot: `
      UPDATE ${s}.slots SET holders = holders - $2::text
      WHERE key = $1 AND holders ? $2::text AND (holders ->> $2::text)::bigint > $3::bigint
      RETURNING 1 AS granted`,
  };
}
