/**
 * The claim, as a call of claim_jobs_v2, the function migration 16 installs: migration 9's
 * claim_jobs (`migrations/000009.sql`, whose header walks through its statement) with parent_id
 * in its answer (`000016.sql` says why it has a name of its own):
 * $1 queues, $2 now, $3 limit, $4 worker, $5 visibility ms, $6 dropExhausted names,
 * $7 the LEASE_LAPSED error (JSON), $8 the job names to claim (null: every name).
 */
export const claimSql = (s: string) =>
  `SELECT * FROM ${s}.claim_jobs_v2($1::text[], $2::bigint, $3::integer, $4::text, $5::bigint,
    $6::text[], $7::json, $8::text[])`;
