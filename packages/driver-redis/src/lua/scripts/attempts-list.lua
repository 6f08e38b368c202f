-- attempts-list: a job's attempt history, for `attempts.list` (include "attempts" writes it).
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        unused
-- ARGV[2] jobId      the job
-- ARGV[3] tenant     the caller's tenant ('' = any)
--
-- Answers {'missing'} when this tenant sees no such job, else {'ok', record JSON...}: at most
-- MAX_ATTEMPT_RECORDS, oldest first.
--- @include "keys"

local found = redis.call('HMGET', k_job(ARGV[2]), 'state', 'tenantId')
if not found[1] or (ARGV[3] ~= '' and found[2] ~= ARGV[3]) then return { 'missing' } end
local out = { 'ok' }
for _, record in ipairs(redis.call('LRANGE', k_attempts(ARGV[2]), 0, -1)) do
  out[#out + 1] = record
end
return out
