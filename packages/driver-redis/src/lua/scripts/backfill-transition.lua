-- backfill-transition: moves a run from one of the given statuses to `to`. Sets status, jobId
-- and lastError when given, updatedAt, and finishedAt when `to` is final.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] runId      the run
-- ARGV[3] tenant     the caller's tenant ('' = none)
-- ARGV[4] to         the new status
-- ARGV[5] jobId      the run's new job ('' keeps it)
-- ARGV[6] hasError   '1' when an error is given
-- ARGV[7] error      the error, JSON text
-- ARGV[8..]          the statuses it may move from
--
-- Answers false when the run is not visible, {0, run} when its status is not one of them, else
-- {1, run}.
--- @include "keys"
--- @include "now"
--- @include "backfills"

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
