-- delete: the row (another tenant's reads as missing) unless it is running, with its index,
-- list and waiter entries, its steps and its hold on its idempotency key; a queue left empty
-- leaves the queue set as after a purge.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        unused
-- ARGV[2] id         the job
-- ARGV[3] tenant     the caller's tenant ('' = any)
--
-- Answers {'missing'} | {'state', 'running'} | {'ok', job as it stood}.
--- @include "staging"
--- @include "rows"
--- @include "idempotency"
--- @include "remove-row"

local id = ARGV[2]
local tenant = ARGV[3]
local job = loadJob(id)
if not job or (tenant ~= '' and job.d.tenantId ~= tenant) then return { 'missing' } end
if job.d.state == 'running' then return { 'state', 'running' } end
local answer = flat(job)
releaseKey(job.d)
removeRow(job)
flush()
forgetEmptyQueue(job.d.queue)
return { 'ok', answer }
