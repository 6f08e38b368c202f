/**
 * Migration 13: the attempt-record triggers read `job_attempts` by its key whatever the
 * statistics say. Migration 8's record_attempt (its `max(seq)` and the cap's DELETE) and
 * migration 12's keep_attempt_error each run once per changed row; after an ANALYZE that saw the
 * table empty, as autovacuum leaves it before the first ack, their plans scanned the whole table
 * for every row, so an ackMany of 1,000 read it 2,000 times (800 ms a batch behind 20k records,
 * against 32 ms). Both functions now run with `enable_seqscan = off`, as claim_jobs does: each
 * lookup is by `(job_id, seq)`, the primary key. Neither function's body changes.
 * Records its own version last, so it runs as one implicit transaction. `s` is the quoted schema.
 */
export const MIGRATION_000013 = (s: string): string => `
ALTER FUNCTION ${s}.record_attempt() SET enable_seqscan = off;
ALTER FUNCTION ${s}.keep_attempt_error() SET enable_seqscan = off;

INSERT INTO ${s}.migrations (version) VALUES (13) ON CONFLICT DO NOTHING;
`;
