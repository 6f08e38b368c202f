-- Migration 15: schedules stored by the driver (`schedules`, contract/schedules.ts). One row per
-- (tenant, name), no tenant stored as '' (tenant names are never empty); instants in epoch ms as
-- `jobs` keeps them, and the payload `json` as a job's is, so it answers the text it was given.
-- List and due order compare names in UTF-16 code-unit order, which no collation gives: "C" is
-- UTF-8 byte order, which puts U+E000–U+FFFF before the astral planes where code units put them
-- after. So each row also keeps its name and tenant as UTF-16BE bytes (`name_order`,
-- `tenant_order`, written by the driver; '' for no tenant sorts first), whose byte order is
-- code-unit order, and the order indexes sort by them:
-- - schedules_listed_idx: `list` over every tenant, a keyset walk from its `after`;
-- - schedules_tenant_idx: `list` of one tenant, the same walk within it;
-- - schedules_due_idx: `due`, over unpaused rows only, by next_at then list order, so a tick
--   reads the rows it answers and never the schedules not yet due.

CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.schedules (
  tenant_id text COLLATE "C" NOT NULL,
  name text COLLATE "C" NOT NULL,
  tenant_order bytea NOT NULL,
  name_order bytea NOT NULL,
  cron text NOT NULL,
  timezone text,
  job text NOT NULL,
  queue text,
  payload json NOT NULL,
  priority integer,
  max_attempts integer,
  paused boolean NOT NULL,
  next_at bigint NOT NULL,
  revision bigint NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (tenant_id, name)
);
CREATE INDEX IF NOT EXISTS schedules_listed_idx
  ON :BERTH_SCHEMA.schedules (name_order, tenant_order);
CREATE INDEX IF NOT EXISTS schedules_tenant_idx
  ON :BERTH_SCHEMA.schedules (tenant_id, name_order);
CREATE INDEX IF NOT EXISTS schedules_due_idx
  ON :BERTH_SCHEMA.schedules (next_at, name_order, tenant_order) WHERE NOT paused;

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (15) ON CONFLICT DO NOTHING;
