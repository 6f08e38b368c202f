-- requeue-check: requeue's checks, in the spec's order, changing nothing. A row of another
-- tenant answers {'missing'}, exactly like an id nobody queued.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] id         the job
-- ARGV[3] tenant     the caller's tenant ('' = any)
-- ARGV[4] fromStep   '' = none
--
-- Answers {'missing'} | {'state', effective} | {'duplicate', holderId} | {'step', runId} | {'ok'}.
--- @include "keys"
--- @include "states"
--- @include "format"
--- @include "rows"
--- @include "idempotency"

local now = n(ARGV[1])
local id = ARGV[2]
local tenant = ARGV[3]
local job = loadJob(id)
if not job or (tenant ~= '' and job.d.tenantId ~= tenant) then return { 'missing' } end
local d = job.d
if not REQUEUEABLE[d.state] then return { 'state', effective(d, now) } end
if d.idempotencyKey then
  local holder = keyHolder(keyField(d.name, d.tenantId, d.idempotencyKey))
  if holder and holder ~= id then return { 'duplicate', holder } end
end
local step = ARGV[4]
if step ~= '' and redis.call('HEXISTS', k_steps(d.runId), step) == 0 then
  return { 'step', d.runId }
end
return { 'ok' }
