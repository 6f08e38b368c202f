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
     * entries are dropped on the way, and up to $6 other keys whose holders all expired are
     * swept. $1 key, $2 limit, $3 holder, $4 now, $5 expires_at, $6 sweep.
     */
    acquireSlot: `
      WITH swept AS (${sweep(s, '$4', '$6')}
      ), granted AS (
        INSERT INTO ${s}.slots AS t (key, holders, expires_at)
        VALUES ($1, jsonb_build_object($3::text, $5::bigint), $5::bigint)
        ON CONFLICT (key) DO UPDATE SET
          holders = ${others('t', '$3', '$4', "coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb)")}
            || jsonb_build_object($3::text, $5::bigint),
          expires_at = greatest($5::bigint, ${others('t', '$3', '$4', 'max((e.value)::bigint)')})
        WHERE (t.holders ? $3::text AND (t.holders ->> $3::text)::bigint > $4::bigint)
          OR ${others('t', '$3', '$4', 'count(*)')} < $2::int
        RETURNING 1
      )
      SELECT 1 AS granted FROM granted`,

    /** $1 key, $2 holder, $3 now, $4 expires_at. */
    renewSlot: `
      UPDATE ${s}.slots SET holders = jsonb_set(holders, ARRAY[$2::text], to_jsonb($4::bigint)),
        expires_at = greatest(expires_at, $4::bigint)
      WHERE key = $1 AND holders ? $2::text AND (holders ->> $2::text)::bigint > $3::bigint
      RETURNING 1 AS granted`,

    /**
     * Drops the holder's unexpired entry (and expired ones); `emptied` says no holder is left,
     * and `deleteEmptySlot` then removes the row. Sweeps like acquireSlot.
     * $1 key, $2 holder, $3 now, $4 sweep.
     */
    releaseSlot: `
      WITH swept AS (${sweep(s, '$3', '$4')}
      ), released AS (
        UPDATE ${s}.slots t SET
          holders = ${others('t', '$2', '$3', "coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb)")},
          expires_at = coalesce(${others('t', '$2', '$3', 'max((e.value)::bigint)')}, 0)
        WHERE t.key = $1 AND t.holders ? $2::text AND (t.holders ->> $2::text)::bigint > $3::bigint
        RETURNING t.holders
      )
      SELECT 1 AS granted, holders = '{}'::jsonb AS emptied FROM released`,

    /**
     * A slot row left with no holder. A holder that joined since keeps it: the condition is
     * re-checked on the row's latest version. $1 key.
     */
    deleteEmptySlot: `DELETE FROM ${s}.slots WHERE key = $1 AND holders = '{}'::jsonb`,
  };
}

/** An aggregate over the unexpired entries of alias `t` other than `holder`'s. */
const others = (t: string, holder: string, now: string, aggregate: string) =>
  `(SELECT ${aggregate} FROM jsonb_each(${t}.holders) e
    WHERE (e.value)::bigint > ${now}::bigint AND e.key <> ${holder}::text)`;

/**
 * Deletes up to `limit` slot rows whose every holder expired, skipping rows others hold; never
 * the call's own key ($1), which the same statement writes.
 */
const sweep = (s: string, now: string, limit: string) => `
        DELETE FROM ${s}.slots WHERE key IN (
          SELECT x.key FROM ${s}.slots x WHERE x.expires_at <= ${now}::bigint AND x.key <> $1
          ORDER BY x.expires_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING 1`;
