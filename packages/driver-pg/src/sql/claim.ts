/**
 * The claim, as a call of claim_jobs, the function migration 9 installs
 * (`migrations/000009.sql`, whose header walks through its statement):
 * $1 queues, $2 now, $3 limit, $4 worker, $5 visibility ms, $6 dropExhausted names,
 * $7 the LEASE_LAPSED error (JSON), $8 the job names to claim (null: every name).
 */
export const claimSql = (s: string) =>
  `SELECT * FROM ${s}.claim_jobs($1::text[], $2::bigint, $3::integer, $4::text, $5::bigint,
    $6::text[], $7::json, $8::text[])`;
