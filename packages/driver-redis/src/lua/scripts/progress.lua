-- progress: a fenced progress write. Only the `progress` and `updatedAt` fields change: no index
-- orders by them, so none is touched. The fence holds while the row is running under this
-- worker and claim (a lapsed lease nobody re-claimed too). A landed write is told on the
-- lifecycle stream as `progress`.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] jobId      the job
-- ARGV[3] workerId   the fence: its holder
-- ARGV[4] claim      the fence: its claim
-- ARGV[5] value      the progress, JSON text
-- ARGV[6] retention  the lifecycle retention (include "lifecycle": its last ARGV)
--
-- Answers 1 when the fence holds (and the write landed), else 0.
--- @include "keys"
--- @include "format"
--- @include "lifecycle"

local now, id, worker, claim, value = n(ARGV[1]), ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local held = redis.call('HMGET', k_job(id), 'state', 'claimedBy', 'claim', 'name', 'queue',
  'tenantId', 'attempts')
if held[1] ~= 'running' or held[2] ~= worker or n(held[3]) ~= n(claim) then return 0 end
redis.call('HSET', k_job(id), 'progress', value, 'updatedAt', fmt(now))
tellLifecycle('progress', id, held[4], held[5], held[6], held[7] or '0')
return 1
