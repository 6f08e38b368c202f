-- settle: fenced settles, one or many, in order. A fence holds while the row is running under
-- this worker and claim (a lapsed lease that no one re-claimed still holds). One wake for the
-- queues a nack or a due suspend gave work; one settle notice for the rows an ack or a nack
-- ended (tellSettled). Per op, a1..a4 ('' = absent):
-- - ack: a1 result JSON (a running row no claim saw lapse takes ackFast, of "ack-fast");
-- - nack: a1 error JSON, a2 retryAt, a3 how it ends ('1' final: given up; 'cancel': cancelled
--   whatever attempts remain and whatever a2 and a4 say; else retried while attempts remain),
--   a4 deadLetter ('0' = failed);
-- - suspend: a1 until, a2 waitFor, a3 eventsSince (due now when an unexpired `waitFor` event
--   was published at or after it: the first unexpired entry of the name's live index has the
--   latest publishedAt, one O(log n) read), a4 the events filter JSON `{match?, exclude?}`
--   (eventsMatch, eventsExclude: then only an event passing it counts, over at most
--   {{EVENTS_SINCE_SCAN}} of the name's newest events); the row notes the event seq it waits after;
-- - extend: a1 visibilityTimeoutMs.
-- Each landed ack, nack and suspend is told on the lifecycle stream: `completed`; `retried` (a
-- nack back to work) or the state the nack settled in; `suspended`. An extend tells nothing.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] count      how many items follow
-- ARGV[3..]          per item {{SETTLE_WIDTH}} values (src/lua/settle.ts): op, jobId, workerId,
--                    claim, a1, a2, a3, a4; then (the last ARGV) the lifecycle retention
--
-- Answers 1 or 0 per item: landed or not.
--- @include "keys"
--- @include "states"
--- @include "format"
--- @include "now"
--- @include "staging"
--- @include "rows"
--- @include "indexes"
--- @include "wake"
--- @include "finish"
--- @include "fence"
--- @include "attempts"
--- @include "ack-fast"
--- @include "settled"
--- @include "lifecycle"

local now = n(ARGV[1])
local count = n(ARGV[2])
local landed = {}
-- What a settle reads or changes of a row: its payload and result never leave the server.
local FIELDS = { 'state', 'claimedBy', 'claim', 'attempts', 'maxAttempts', 'queue', 'name',
  'priority', 'runAt', 'seq', 'createdAt', 'idempotencyKey', 'tenantId', 'waitFor', 'claimNote',
  'visibleAt', 'lapsed', 'claimedAt', 'attemptSeq' }
local function loadRow(id)
  local found = redis.call('HMGET', k_job(id), unpack(FIELDS))
  if not found[1] then return nil end
  local d = {}
  for i, field in ipairs(FIELDS) do
    if found[i] then d[field] = found[i] end
  end
  return withDefaults(d, id)
end
local seen = {}
local settled = {}
-- JSON deep equality over cjson values (an empty object and an empty array both decode to an
-- empty table, and compare equal: the one case where this and core's matcher differ).
local function sameJson(a, b)
  if type(a) ~= 'table' or type(b) ~= 'table' then return a == b end
  for k, v in pairs(a) do if not sameJson(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end
local function passes(id, json, filter)
  if filter.exclude then
    for _, excluded in ipairs(filter.exclude) do if excluded == id then return false end end
  end
  if filter.match == nil then return true end
  local payload = cjson.decode(json).payload
  if type(payload) ~= 'table' then return false end
  for key, value in pairs(filter.match) do
    if payload[key] == nil or not sameJson(payload[key], value) then return false end
  end
  return true
end
local function publishedSince(name, since, filter)
  if filter == nil then
    local first = redis.call('ZRANGE', k_eventsLive(name), '(' .. fmt(now), '+inf', 'BYSCORE', 'LIMIT', 0, 1)[1]
    return first ~= nil and n(string.sub(first, 1, 16)) >= n(since)
  end
  local members = redis.call('ZRANGE', k_eventsName(name), '+', '[' .. string.format('%016.0f', n(since)),
    'BYLEX', 'REV', 'LIMIT', 0, {{EVENTS_SINCE_SCAN}})
  for _, member in ipairs(members) do
    local id = string.sub(member, 34)
    local fields = redis.call('HMGET', k_event(id), 'expiresAt', 'json')
    if fields[1] and n(fields[1]) > now and passes(id, fields[2], filter) then return true end
  end
  return false
end
for item = 1, count do
  local at = 2 + (item - 1) * {{SETTLE_WIDTH}}
  local op, id, worker, claim = ARGV[at + 1], ARGV[at + 2], ARGV[at + 3], ARGV[at + 4]
  local a1, a2, a3, a4 = ARGV[at + 5], ARGV[at + 6], ARGV[at + 7], ARGV[at + 8]
  local fast = nil
  if op == 'ack' then fast = ackFast(id, worker, claim, a1) end
  local job = nil
  if fast == nil then job = loadRow(id) end
  if fast ~= nil then
    landed[item] = fast
    if fast == 1 then settled[#settled + 1] = id end
  elseif fenceHolds(job, worker, claim) then
    -- An extend keeps the row running: its claim note (kept only in the claims hash) stays.
    if op == 'extend' then job.d.claimNote = redis.call('HGET', k_claims(worker), id) or nil end
    if op == 'ack' then
      set(job, 'attemptSeq', recordAttempt(job.d, 'completed', nil))
    elseif op == 'nack' then
      local outcome = 'failed'
      if a3 == 'cancel' then
        outcome = 'cancelled'
      elseif a3 ~= '1' and n(job.d.attempts) < n(job.d.maxAttempts) then
        outcome = 'retried'
      end
      set(job, 'attemptSeq', recordAttempt(job.d, outcome, a1))
    elseif op == 'suspend' then
      set(job, 'attemptSeq', recordAttempt(job.d, 'suspended', nil))
    end
    unindex(job)
    set(job, 'updatedAt', NOW_TEXT)
    if op == 'ack' then
      finish(job, 'completed', now)
      if a1 ~= '' then set(job, 'result', a1) end
    elseif op == 'nack' then
      set(job, 'lastError', a1)
      set(job, 'claimedBy', nil)
      set(job, 'claimNote', nil)
      set(job, 'visibleAt', nil)
      if a3 == 'cancel' then
        finish(job, 'cancelled', now)
      elseif a3 ~= '1' and n(job.d.attempts) < n(job.d.maxAttempts) then
        if a2 ~= '' and n(a2) > now then
          set(job, 'state', 'delayed')
          set(job, 'runAt', pad(a2))
        else
          set(job, 'state', 'ready')
          set(job, 'runAt', NOW_PADDED)
        end
        noteWork(seen, job.d.queue)
      elseif a4 == '0' then
        finish(job, 'failed', now)
      else
        finish(job, 'dead', now)
      end
    elseif op == 'suspend' then
      set(job, 'state', 'suspended')
      local filter = nil
      if a4 ~= '' then filter = cjson.decode(a4) end
      if a2 ~= '' and a3 ~= '' and publishedSince(a2, a3, filter) then
        set(job, 'runAt', NOW_PADDED)
      else
        set(job, 'runAt', pad(a1))
      end
      if a2 ~= '' then
        set(job, 'waitFor', a2)
        set(job, 'waitSeq', redis.call('GET', k_eventSeq()) or '0')
      else
        set(job, 'waitFor', nil)
      end
      set(job, 'claimedBy', nil)
      set(job, 'claimNote', nil)
      set(job, 'visibleAt', nil)
      if n(job.d.runAt) <= now then noteWork(seen, job.d.queue) end
    else
      set(job, 'visibleAt', fmt(now + n(a1)))
    end
    index(job.d, now)
    save(job)
    if op == 'ack' then
      tellRow('completed', job.d)
    elseif op == 'nack' then
      tellRow(LIVE[job.d.state] and 'retried' or job.d.state, job.d)
    elseif op == 'suspend' then
      tellRow('suspended', job.d)
    end
    if TERMINAL[job.d.state] then settled[#settled + 1] = id end
    landed[item] = 1
  else
    landed[item] = 0
  end
end
flush()
wake(seen)
tellSettled(settled)
return landed
