-- Migration 5: list order in a table of its own. jobs_list_idx gave every version of a job row an
-- entry, so each claim and each ack wrote one more index entry (and pruned the old ones): about
-- a fifth of the server's CPU per job in a claim→ack loop. created_at and seq never change, so
-- jobs_listed gets one row per job when it is inserted and loses it when the job is purged, and
-- a claim or an ack never touches it. Triggers keep it, so every writer of jobs does, also a
-- process of an older version during a rolling deploy.

CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.jobs_listed (
  created_at bigint NOT NULL,
  seq bigint NOT NULL,
  id uuid NOT NULL,
  PRIMARY KEY (created_at, seq)
);

-- Statement triggers read the statement's rows as a set: one insert (or delete) per statement.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.jobs_listed_add() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO :BERTH_SCHEMA.jobs_listed (created_at, seq, id) SELECT created_at, seq, id FROM added;
  RETURN NULL;
END
$fn$;
-- A purge removes a bounded batch: each of its rows is found by key (a nested loop), never by a
-- scan of jobs_listed, whatever a transition table's row estimate makes the planner expect.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.jobs_listed_drop() RETURNS trigger
LANGUAGE plpgsql
SET enable_hashjoin = off
SET enable_mergejoin = off
AS $fn$
BEGIN
  DELETE FROM :BERTH_SCHEMA.jobs_listed l USING removed r
  WHERE l.created_at = r.created_at AND l.seq = r.seq;
  RETURN NULL;
END
$fn$;
DROP TRIGGER IF EXISTS jobs_listed_add ON :BERTH_SCHEMA.jobs;
CREATE TRIGGER jobs_listed_add AFTER INSERT ON :BERTH_SCHEMA.jobs
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION :BERTH_SCHEMA.jobs_listed_add();
DROP TRIGGER IF EXISTS jobs_listed_drop ON :BERTH_SCHEMA.jobs;
CREATE TRIGGER jobs_listed_drop AFTER DELETE ON :BERTH_SCHEMA.jobs
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION :BERTH_SCHEMA.jobs_listed_drop();

INSERT INTO :BERTH_SCHEMA.jobs_listed (created_at, seq, id)
SELECT created_at, seq, id FROM :BERTH_SCHEMA.jobs ON CONFLICT DO NOTHING;
DROP INDEX IF EXISTS :BERTH_SCHEMA.jobs_list_idx;

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (5) ON CONFLICT DO NOTHING;
