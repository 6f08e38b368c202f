-- backfill-start: starts a backfill run. A stored runId answers {'started', run} unchanged (a
-- retried start). When maxActive runs of the holder are running or paused, answers
-- {'active', run...} oldest start first and stores nothing; else stores the run running at now,
-- drops the holder's oldest final runs past `kept` (hash and index entries), and answers
-- {'started', run}. The holder's set is bounded by the kept final runs plus the active ones, so
-- the walk is too.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] runId      the run
-- ARGV[3] name       the backfill's name
-- ARGV[4] tenant     its tenant ('' = none)
-- ARGV[5] cursor     the first cursor, JSON text
-- ARGV[6] jobId      the job that runs the first pass
-- ARGV[7] maxActive  running or paused runs the holder may have
-- ARGV[8] kept       final runs of the holder kept
--- @include "keys"
--- @include "format"
--- @include "now"
--- @include "backfills"

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
