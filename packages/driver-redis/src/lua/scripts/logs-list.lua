-- logs-list: a page of a job's log lines.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        unused
-- ARGV[2] jobId      the job
-- ARGV[3] tenant     't' + the caller's tenant, or 'n' (any)
-- ARGV[4] after      the first line's position
-- ARGV[5] count      most lines answered
--
-- Answers {0} when the job is missing or another tenant's, else {1, dropped, entries...}.
--- @include "keys"
--- @include "format"

local id, tenant, after, count = ARGV[2], ARGV[3], n(ARGV[4]), n(ARGV[5])
local row = redis.call('HMGET', k_job(id), 'state', 'tenantId')
if not row[1] then return { 0 } end
if tenant ~= 'n' and row[2] ~= string.sub(tenant, 2) then return { 0 } end
local dropped = redis.call('HGET', k_logHead(id), 'dropped') or '0'
local entries = redis.call('LRANGE', k_logs(id), after, after + count - 1)
local answer = { 1, dropped }
for i = 1, #entries do answer[#answer + 1] = entries[i] end
return answer
