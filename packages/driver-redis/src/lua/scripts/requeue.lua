-- requeue: requeue's change, conditional on the row still being requeueable and on no other
-- live row having taken its key during the seam: ready now, attempts 0, settle fields cleared
-- (lastError, claim and runId kept), and with fromStep that step and every step written after
-- it dropped. A row of another tenant answers {'missing'}, exactly like an id nobody queued.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] id         the job
-- ARGV[3] tenant     the caller's tenant ('' = any)
-- ARGV[4] fromStep   '' = none
--
-- Answers {'missing'} | {'live'} | {'duplicate', holderId} | {'ok', job}.
--- @include "keys"
--- @include "states"
--- @include "format"
--- @include "now"
--- @include "sliced"
--- @include "staging"
--- @include "rows"
--- @include "indexes"
--- @include "idempotency"
--- @include "wake"

local now = n(ARGV[1])
local id = ARGV[2]
local tenant = ARGV[3]
local job = loadJob(id)
if not job or (tenant ~= '' and job.d.tenantId ~= tenant) then return { 'missing' } end
local d = job.d
if not REQUEUEABLE[d.state] then return { 'live' } end
if d.idempotencyKey then
  local holder = keyHolder(keyField(d.name, d.tenantId, d.idempotencyKey))
  if holder and holder ~= id then return { 'duplicate', holder } end
end
unindex(job)
set(job, 'state', 'ready')
set(job, 'runAt', NOW_PADDED)
set(job, 'attempts', '0')
set(job, 'updatedAt', NOW_TEXT)
for _, field in ipairs({ 'finishedAt', 'result', 'claimedBy', 'visibleAt', 'waitFor' }) do
  set(job, field, nil)
end
index(d, now)
save(job)
flush()
if d.idempotencyKey then
  -- A live row again: it holds its key (no other live row holds it).
  redis.call('HSET', k_idem(), keyField(d.name, d.tenantId, d.idempotencyKey), id)
end
local step = ARGV[4]
if step ~= '' then
  local order = redis.call('ZSCORE', k_stepOrder(d.runId), step)
  if order then
    local dropped = redis.call('ZRANGEBYSCORE', k_stepOrder(d.runId), order, '+inf')
    callSliced('HDEL', k_steps(d.runId), dropped)
    callSliced('ZREM', k_stepOrder(d.runId), dropped)
  end
end
local seen = {}
noteWork(seen, d.queue)
wake(seen)
return { 'ok', flat(job) }
