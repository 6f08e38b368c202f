-- Migration 1: the jobs, steps, events, leases and slots tables. Every statement is idempotent
-- (`IF NOT EXISTS`).

CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.jobs (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  run_id uuid NOT NULL,
  name text NOT NULL,
  queue text NOT NULL,
  payload json NOT NULL,
  state text NOT NULL CHECK (state IN
    ('ready', 'delayed', 'running', 'suspended', 'completed', 'failed', 'dead', 'cancelled')),
  priority integer NOT NULL,
  attempts integer NOT NULL,
  max_attempts integer NOT NULL,
  run_at bigint NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  finished_at bigint,
  claimed_by text,
  claim bigint NOT NULL,
  visible_at bigint,
  last_error json,
  result json,
  progress json,
  idempotency_key text,
  concurrency_key text,
  tenant_id text,
  traceparent text,
  enqueued_by text,
  wait_for text
);
CREATE UNIQUE INDEX IF NOT EXISTS jobs_live_key_idx
  ON :BERTH_SCHEMA.jobs (name, (coalesce(tenant_id, '')), idempotency_key)
  WHERE idempotency_key IS NOT NULL AND state IN ('ready', 'delayed', 'running', 'suspended');
-- The claim walks this in claim order, per queue, and stops after its limit.
CREATE INDEX IF NOT EXISTS jobs_claim_idx
  ON :BERTH_SCHEMA.jobs (queue, priority DESC, run_at, seq)
  WHERE state IN ('ready', 'delayed', 'suspended');
-- Lapsed leases: the claim re-hands or buries them, reading only the lapsed ones.
CREATE INDEX IF NOT EXISTS jobs_lease_idx ON :BERTH_SCHEMA.jobs (queue, visible_at)
  WHERE state = 'running';
CREATE INDEX IF NOT EXISTS jobs_list_idx ON :BERTH_SCHEMA.jobs (created_at DESC, seq DESC);
CREATE INDEX IF NOT EXISTS jobs_waiting_idx ON :BERTH_SCHEMA.jobs (wait_for) WHERE state = 'suspended';
CREATE INDEX IF NOT EXISTS jobs_finished_idx ON :BERTH_SCHEMA.jobs (finished_at)
  WHERE finished_at IS NOT NULL;

CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.steps (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  run_id uuid NOT NULL,
  name text NOT NULL,
  status text NOT NULL,
  output json,
  error json,
  attempts integer NOT NULL,
  wake_at bigint,
  event_name text,
  event_id uuid,
  started_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  UNIQUE (run_id, name)
);

CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.events (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  name text NOT NULL,
  payload json NOT NULL,
  published_at bigint NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS events_find_idx ON :BERTH_SCHEMA.events (name, published_at, seq);
CREATE INDEX IF NOT EXISTS events_expiry_idx ON :BERTH_SCHEMA.events (expires_at);

CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.leases (
  name text PRIMARY KEY,
  holder text NOT NULL,
  expires_at bigint NOT NULL
);

-- One row per slot key, holding holder -> expiresAt: a grant decides from that one locked row.
CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.slots (
  key text PRIMARY KEY,
  holders jsonb NOT NULL
);

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (1) ON CONFLICT DO NOTHING;
