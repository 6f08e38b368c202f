/**
 * Migration 2: named monotonic marks (the scheduler's per-schedule high-water mark). Idempotent,
 * and records its own version last, so it runs as one implicit transaction. `s` is the quoted
 * schema.
 */
export const MIGRATION_000002 = (s: string): string => `
CREATE TABLE IF NOT EXISTS ${s}.marks (
  name text PRIMARY KEY,
  value bigint NOT NULL
);

INSERT INTO ${s}.migrations (version) VALUES (2) ON CONFLICT DO NOTHING;
`;
