-- operator: cancel: a LIVE row -> cancelled, told in a settle notice (tellSettled) and on the
-- lifecycle stream (`cancelled`); a row that was running is also told on the wake channel
-- (tellCancelled). promote: an effectively delayed row -> ready now. A row of another tenant
-- answers {'missing'}, exactly like an id nobody queued.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] id         the job
-- ARGV[3] tenant     the caller's tenant ('' = any)
-- ARGV[4] op         cancel | promote
-- ARGV[5] retention  the lifecycle retention (include "lifecycle": its last ARGV)
--
-- Answers {'missing'}, {'state', effective state} when the op does not apply, or
-- {'ok', job} when it landed.
--- @include "states"
--- @include "format"
--- @include "now"
--- @include "staging"
--- @include "rows"
--- @include "indexes"
--- @include "wake"
--- @include "finish"
--- @include "attempts"
--- @include "settled"
--- @include "lifecycle"

local now = n(ARGV[1])
local id = ARGV[2]
local tenant = ARGV[3]
local job = loadJob(id)
if not job or (tenant ~= '' and job.d.tenantId ~= tenant) then return { 'missing' } end
local op = ARGV[4]
local state = effective(job.d, now)
if op == 'cancel' then
  if not LIVE[job.d.state] then return { 'state', state } end
  local wasRunning = job.d.state == 'running'
  if wasRunning then set(job, 'attemptSeq', recordAttempt(job.d, 'cancelled', nil)) end
  unindex(job)
  finish(job, 'cancelled', now)
  set(job, 'updatedAt', NOW_TEXT)
  index(job.d, now)
  save(job)
  tellRow('cancelled', job.d)
  flush()
  if wasRunning then tellCancelled(id, job.d.queue) end
  tellSettled({ id })
  return { 'ok', flat(job) }
end
if state ~= 'delayed' then return { 'state', state } end
unindex(job)
set(job, 'state', 'ready')
set(job, 'runAt', NOW_PADDED)
set(job, 'updatedAt', NOW_TEXT)
index(job.d, now)
save(job)
flush()
local seen = {}
noteWork(seen, job.d.queue)
wake(seen)
return { 'ok', flat(job) }
