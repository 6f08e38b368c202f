-- step-put: a fenced step write: the step is written in place, and a name's first write fixes
-- its place in the run's write order.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        unused
-- ARGV[2] jobId      the job
-- ARGV[3] workerId   the fence: its holder
-- ARGV[4] claim      the fence: its claim
-- ARGV[5] runId      the run the step belongs to
-- ARGV[6] name       the step's name
-- ARGV[7] json       the step, JSON text
--
-- Answers {'lost'} when the fence does not hold, {'run', its runId} when the fenced job's run
-- is another, else {'ok'}.
--- @include "keys"
--- @include "rows"
--- @include "fence"

local job = loadJob(ARGV[2])
if not fenceHolds(job, ARGV[3], ARGV[4]) then return { 'lost' } end
local runId, name = ARGV[5], ARGV[6]
if job.d.runId ~= runId then return { 'run', job.d.runId } end
redis.call('HSET', k_steps(runId), name, ARGV[7])
if not redis.call('ZSCORE', k_stepOrder(runId), name) then
  redis.call('ZADD', k_stepOrder(runId), redis.call('INCR', k_stepSeq()), name)
end
return { 'ok' }
