/**
 * The backfill ledger (contract/backfills.ts): per run a hash `k_backfill(runId)` of its fields
 * (the cursor as JSON text, never parsed here; tenantId, finishedAt and lastError only when set),
 * and its runId in four zsets by startedAt: every run, per name, per tenant (runs with one), and
 * per holder `qn(tenant, name)` (tenant '' for none: core refuses an empty tenantId). Equal
 * scores order by runId, so a zset's order is the contract's (startedAt, runId).
 *
 * Each call is one script. A run is answered as HGETALL's flat `{ field, value, ... }`.
 */
const BACKFILL_COMMON = `
local FINAL = { completed = true, failed = true, cancelled = true }

-- A run's flat fields and the same as a table, or nil when there is none, or when \`tenant\` is
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
`;

/**
 * ARGV: now, runId, name, tenant ('' none), cursor JSON, jobId, maxActive, runs kept.
 * A stored runId answers {'started', run} unchanged (a retried start). When maxActive runs of the
 * holder are running or paused answers {'active', run...} oldest start first and stores nothing;
 * else stores the run running at now, drops the holder's oldest final runs past `runs kept`
 * (hash and index entries), and answers {'started', run}. The holder's set is bounded by the
 * kept final runs plus the active ones, so the walk is too.
 */
export const BACKFILL_START_LUA = `${BACKFILL_COMMON}
local runId, name, tenant = ARGV[2], ARGV[3], ARGV[4]
local stored = answerRun(runId)
if #stored > 0 then return { 'started', stored } end

local active, final = {}, {}
for _, id in ipairs(redis.call('ZRANGE', k_backfillsHolder(qn(tenant, name)), 0, -1)) do
  local status = redis.call('HGET', k_backfill(id), 'status')
  if status then
    if FINAL[status] then final[#final + 1] = id else active[#active + 1] = id end
  end
end
if #active >= n(ARGV[7]) then
  local out = { 'active' }
  for _, id in ipairs(active) do out[#out + 1] = answerRun(id) end
  return out
end

local fields = { 'runId', runId, 'name', name, 'status', 'running', 'cursor', ARGV[5],
  'passes', '0', 'rowsDone', '0', 'jobId', ARGV[6], 'startedAt', NOW_TEXT, 'updatedAt', NOW_TEXT }
if tenant ~= '' then
  fields[#fields + 1] = 'tenantId'
  fields[#fields + 1] = tenant
end
redis.call('HSET', k_backfill(runId), unpack(fields))
local indexes = runIndexes(name, tenant)
for _, key in ipairs(indexes) do redis.call('ZADD', key, NOW_TEXT, runId) end

for i = 1, #final - n(ARGV[8]) do
  redis.call('DEL', k_backfill(final[i]))
  for _, key in ipairs(indexes) do redis.call('ZREM', key, final[i]) end
end
return { 'started', answerRun(runId) }
`;

/** ARGV: now (unused), runId, tenant ('' none). Answers the run, or false. */
export const BACKFILL_GET_LUA = `${BACKFILL_COMMON}
local flat = visibleRun(ARGV[2], ARGV[3])
return flat or false
`;

/**
 * ARGV: now, runId, tenant ('' none), to, jobId ('' keeps it), 1 when an error is given, the
 * error, then the from statuses. False when the run is not visible; {0, run} when its status is
 * not one of from; else sets status, jobId and lastError when given, updatedAt, and finishedAt
 * when `to` is final, and answers {1, run}.
 */
export const BACKFILL_TRANSITION_LUA = `${BACKFILL_COMMON}
local runId = ARGV[2]
local flat, d = visibleRun(runId, ARGV[3])
if not flat then return false end
local allowed = false
for i = 8, #ARGV do
  if ARGV[i] == d.status then allowed = true end
end
if not allowed then return { 0, flat } end

local to = ARGV[4]
local changes = { 'status', to, 'updatedAt', NOW_TEXT }
if ARGV[5] ~= '' then
  changes[#changes + 1] = 'jobId'
  changes[#changes + 1] = ARGV[5]
end
if ARGV[6] == '1' then
  changes[#changes + 1] = 'lastError'
  changes[#changes + 1] = ARGV[7]
end
if FINAL[to] then
  changes[#changes + 1] = 'finishedAt'
  changes[#changes + 1] = NOW_TEXT
end
redis.call('HSET', k_backfill(runId), unpack(changes))
return { 1, answerRun(runId) }
`;

/**
 * ARGV: now, runId, jobId, passes, next cursor JSON ('null': the collection is done), rows.
 * False when the run is missing; {0, run} unless it is running or paused and its jobId and
 * passes equal the commit's (the fence); else advances the cursor, passes and rowsDone,
 * completes the run when next is null, and answers {1, run}.
 */
export const BACKFILL_COMMIT_LUA = `${BACKFILL_COMMON}
local runId = ARGV[2]
local flat, d = visibleRun(runId, '')
if not flat then return false end
if FINAL[d.status] or d.jobId ~= ARGV[3] or n(d.passes) ~= n(ARGV[4]) then return { 0, flat } end

local changes = { 'cursor', ARGV[5], 'passes', fmt(n(d.passes) + 1),
  'rowsDone', fmt(n(d.rowsDone) + n(ARGV[6])), 'updatedAt', NOW_TEXT }
if ARGV[5] == 'null' then
  changes[#changes + 1] = 'status'
  changes[#changes + 1] = 'completed'
  changes[#changes + 1] = 'finishedAt'
  changes[#changes + 1] = NOW_TEXT
end
redis.call('HSET', k_backfill(runId), unpack(changes))
return { 1, answerRun(runId) }
`;

/**
 * ARGV: now (unused), name, tenant, status ('' = no filter each), limit. Walks the narrowest
 * index (holder, name, tenant, or every run) newest first, in slices, keeping the runs of the
 * status, until `limit` are found: at most the index, which retention bounds. Answers the runs.
 */
export const BACKFILL_LIST_LUA = `${BACKFILL_COMMON}
local name, tenant, status, limit = ARGV[2], ARGV[3], ARGV[4], n(ARGV[5])
local key
if name ~= '' and tenant ~= '' then key = k_backfillsHolder(qn(tenant, name))
elseif name ~= '' then key = k_backfillsName(name)
elseif tenant ~= '' then key = k_backfillsTenant(tenant)
else key = k_backfillsOrder() end

local SLICE = 100
local out = {}
local first = 0
while #out < limit do
  local ids = redis.call('ZRANGE', key, first, first + SLICE - 1, 'REV')
  for _, id in ipairs(ids) do
    local flat, d = visibleRun(id, '')
    if flat and (status == '' or d.status == status) then
      out[#out + 1] = flat
      if #out == limit then break end
    end
  end
  if #ids < SLICE then break end
  first = first + SLICE
end
return out
`;
