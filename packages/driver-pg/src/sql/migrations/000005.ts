/**
 * Migration 5: list order in a table of its own. jobs_list_idx gave every version of a job row an
 * entry, so each claim and each ack wrote one more index entry (and pruned the old ones): about
 * a fifth of the server's CPU per job in a claim→ack loop. created_at and seq never change, so
 * jobs_listed gets one row per job when it is inserted and loses it when the job is purged, and
 * a claim or an ack never touches it. Triggers keep it, so every writer of jobs does, also a
 * process of an older version during a rolling deploy. Runs as one implicit transaction and
 * records its own version last. `s` is the quoted schema.
 */
export const MIGRATION_000005 = (s: string): string => `
CREATE TABLE IF NOT EXISTS ${s}.jobs_listed (
  created_at bigint NOT NULL,
  seq bigint NOT NULL,
  id uuid NOT NULL,
  PRIMARY KEY (created_at, seq)
);

-- Statement triggers read the statement's rows as a set: one insert (or delete) per statement.
CREATE OR REPLACE FUNCTION ${s}.jobs_listed_add() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO ${s}.jobs_listed (created_at, seq, id) SELECT created_at, seq, id FROM added;
  RETURN NULL;
END
$fn$;
-- A purge removes a bounded batch: each of its rows is found by key (a nested loop), never by a
-- scan of jobs_listed, whatever a transition table's row estimate makes the planner expect.
CREATE OR REPLACE FUNCTION ${s}.jobs_listed_drop() RETURNS trigger
LANGUAGE plpgsql
SET enable_hashjoin = off
SET enable_mergejoin = off
AS $fn$
BEGIN
  DELETE FROM ${s}.jobs_listed l USING removed r
  WHERE l.created_at = r.created_at AND l.seq = r.seq;
  RETURN NULL;
END
$fn$;
DROP TRIGGER IF EXISTS jobs_listed_add ON ${s}.jobs;
CREATE TRIGGER jobs_listed_add AFTER INSERT ON ${s}.jobs
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION ${s}.jobs_listed_add();
DROP TRIGGER IF EXISTS jobs_listed_drop ON ${s}.jobs;
CREATE TRIGGER jobs_listed_drop AFTER DELETE ON ${s}.jobs
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION ${s}.jobs_listed_drop();

INSERT INTO ${s}.jobs_listed (created_at, seq, id)
SELECT created_at, seq, id FROM ${s}.jobs ON CONFLICT DO NOTHING;
DROP INDEX IF EXISTS ${s}.jobs_list_idx;

INSERT INTO ${s}.migrations (version) VALUES (5) ON CONFLICT DO NOTHING;
`;
