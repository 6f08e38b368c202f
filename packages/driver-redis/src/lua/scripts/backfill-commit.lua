-- backfill-commit: records one pass of a run, fenced by its jobId and passes: advances the
-- cursor, passes and rowsDone, and completes the run when the next cursor is null.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] runId      the run
-- ARGV[3] jobId      the job that ran the pass
-- ARGV[4] passes     the passes the run had when it began
-- ARGV[5] next       the next cursor, JSON text ('null': the collection is done)
-- ARGV[6] rows       rows the pass did
--
-- Answers false when the run is missing; {0, run} unless it is running or paused and its jobId
-- and passes equal the commit's (the fence); else {1, run}.
--- @include "keys"
--- @include "format"
--- @include "now"
--- @include "backfills"

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
