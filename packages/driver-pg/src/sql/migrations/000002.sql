-- Migration 2: named monotonic marks (the scheduler's per-schedule high-water mark).

CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.marks (
  name text PRIMARY KEY,
  value bigint NOT NULL
);

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (2) ON CONFLICT DO NOTHING;
