-- Migration 7: one row per slot holder. Migration 1 kept every holder of a slot key in one jsonb
-- value, which each call read, filtered and wrote whole: a key with 20,000 holders cost every
-- acquire the whole set. Now `slot_holders` has a row per holder and `slot_keys` one row per key
-- with how many holder rows it has (expired ones too, until swept) and their latest expiry. The
-- key's row is the lock: acquire and release lock it first, then read with a fresh snapshot, so
-- each call touches its own holder row, the key row, and the expired rows it sweeps (each holder
-- row is swept once). Holders live in the old table are carried over; the old table stays for
-- processes of an older version during a rolling deploy, which do not share the new limit.

CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.slot_holders (
  key text NOT NULL,
  holder text NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (key, holder)
);
CREATE INDEX IF NOT EXISTS slot_holders_expiry_idx ON :BERTH_SCHEMA.slot_holders (key, expires_at);
CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.slot_keys (
  key text PRIMARY KEY,
  held integer NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS slot_keys_expiry_idx ON :BERTH_SCHEMA.slot_keys (expires_at);

INSERT INTO :BERTH_SCHEMA.slot_holders (key, holder, expires_at)
  SELECT t.key, e.key, (e.value)::bigint FROM :BERTH_SCHEMA.slots t, jsonb_each(t.holders) e
  ON CONFLICT DO NOTHING;
INSERT INTO :BERTH_SCHEMA.slot_keys (key, held, expires_at)
  SELECT key, count(*), max(expires_at) FROM :BERTH_SCHEMA.slot_holders GROUP BY key
  ON CONFLICT DO NOTHING;
DELETE FROM :BERTH_SCHEMA.slots;

-- Renews the holder's unexpired slot, or takes one while fewer than p_limit are unexpired.
-- Sweeps the key's expired holders, and up to p_sweep other keys whose holders all expired.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.acquire_slot(
  p_key text, p_limit integer, p_holder text, p_now bigint, p_expires bigint, p_sweep integer
) RETURNS boolean LANGUAGE plpgsql AS $fn$
DECLARE
  v_held integer;
  v_swept integer;
BEGIN
  PERFORM :BERTH_SCHEMA.sweep_slot_keys(p_key, p_now, p_sweep);
  INSERT INTO :BERTH_SCHEMA.slot_keys AS k (key, held, expires_at) VALUES (p_key, 0, p_expires)
    ON CONFLICT (key) DO UPDATE SET expires_at = greatest(k.expires_at, excluded.expires_at)
    RETURNING held INTO v_held;
  UPDATE :BERTH_SCHEMA.slot_holders SET expires_at = p_expires
    WHERE key = p_key AND holder = p_holder AND expires_at > p_now;
  IF FOUND THEN RETURN true; END IF;
  WITH gone AS (
    DELETE FROM :BERTH_SCHEMA.slot_holders WHERE key = p_key AND expires_at <= p_now RETURNING 1
  ) SELECT count(*) INTO v_swept FROM gone;
  v_held := v_held - v_swept;
  IF v_held >= p_limit THEN
    UPDATE :BERTH_SCHEMA.slot_keys SET held = v_held WHERE key = p_key;
    RETURN false;
  END IF;
  INSERT INTO :BERTH_SCHEMA.slot_holders (key, holder, expires_at) VALUES (p_key, p_holder, p_expires);
  UPDATE :BERTH_SCHEMA.slot_keys SET held = v_held + 1 WHERE key = p_key;
  RETURN true;
END
$fn$;

-- Gives the holder's unexpired slot back; the key's row goes with its last holder row.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.release_slot(
  p_key text, p_holder text, p_now bigint, p_sweep integer
) RETURNS boolean LANGUAGE plpgsql AS $fn$
DECLARE
  v_held integer;
BEGIN
  PERFORM :BERTH_SCHEMA.sweep_slot_keys(p_key, p_now, p_sweep);
  SELECT held INTO v_held FROM :BERTH_SCHEMA.slot_keys WHERE key = p_key FOR UPDATE;
  IF NOT FOUND THEN RETURN false; END IF;
  DELETE FROM :BERTH_SCHEMA.slot_holders WHERE key = p_key AND holder = p_holder AND expires_at > p_now;
  IF NOT FOUND THEN RETURN false; END IF;
  IF v_held <= 1 THEN
    DELETE FROM :BERTH_SCHEMA.slot_keys WHERE key = p_key;
  ELSE
    UPDATE :BERTH_SCHEMA.slot_keys SET held = v_held - 1 WHERE key = p_key;
  END IF;
  RETURN true;
END
$fn$;

-- Removes up to p_sweep keys other than p_key whose every holder expired, skipping locked ones.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.sweep_slot_keys(p_key text, p_now bigint, p_sweep integer)
RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  v_key text;
BEGIN
  FOR v_key IN
    SELECT key FROM :BERTH_SCHEMA.slot_keys WHERE expires_at <= p_now AND key <> p_key
    ORDER BY expires_at LIMIT p_sweep FOR UPDATE SKIP LOCKED
  LOOP
    DELETE FROM :BERTH_SCHEMA.slot_holders WHERE key = v_key;
    DELETE FROM :BERTH_SCHEMA.slot_keys WHERE key = v_key;
  END LOOP;
END
$fn$;

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (7) ON CONFLICT DO NOTHING;
