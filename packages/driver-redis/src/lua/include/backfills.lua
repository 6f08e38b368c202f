-- backfills: the backfill ledger (contract/backfills.ts): per run a hash `k_backfill(runId)` of
-- its fields (the cursor as JSON text, never parsed here; tenantId, finishedAt and lastError only
-- when set), and its runId in four zsets by startedAt: every run, per name, per tenant (runs with
-- one), and per holder `qn(tenant, name)` (tenant '' for none: core refuses an empty tenantId).
-- Equal scores order by runId, so a zset's order is the contract's (startedAt, runId). A run is
-- answered as HGETALL's flat `{ field, value, ... }`.
--- @include "keys"
--- @include "format"

local FINAL = { completed = true, failed = true, cancelled = true }

-- A run's flat fields and the same as a table, or nil when there is none, or when `tenant` is
-- given ('' = none) and the run is another tenant's (or has none).
local function visibleRun(runId, tenant)
  local flat = redis.call('HGETALL', k_backfill(runId))
  if #flat == 0 then return nil end
  local d = {}
  for i = 1, #flat, 2 do d[flat[i]] = flat[i + 1] end
  if tenant ~= '' and d.tenantId ~= tenant then return nil end
  return flat, d
end

local function answerRun(runId) return redis.call('HGETALL', k_backfill(runId)) end

-- The index keys of a run of (name, tenant): every run's, its name's, its holder's, its tenant's.
local function runIndexes(name, tenant)
  local keys = { k_backfillsOrder(), k_backfillsName(name), k_backfillsHolder(qn(tenant, name)) }
  if tenant ~= '' then keys[#keys + 1] = k_backfillsTenant(tenant) end
  return keys
end
