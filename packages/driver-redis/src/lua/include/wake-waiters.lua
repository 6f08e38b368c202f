-- wake-waiters: waking the waiters of a published event, in bounded batches. Publish moves the
-- name's waiter set aside under the event (`waking`), so the set it wakes is exactly the waiters
-- at the publish; a row woken from it must still be suspended on the name since before the event
-- (`waitSeq` < the event's seq), so a row that re-suspended after the publish is not woken by
-- it. An event whose set is not empty yet stays in `wakesPending`, so the rest is woken even if
-- the publisher stops half way (claims carry on with it).
--- @include "keys"
--- @include "format"
--- @include "now"
--- @include "rows"
--- @include "indexes"
--- @include "wake"

local function pendingMember(seq, id, name)
  return string.format('%016.0f', seq) .. id .. name
end

-- Wakes up to budget waiters of the event; answers how many are left to wake.
local function wakeWaiters(seq, id, name, budget, now, seen)
  local key = k_waking(id)
  for _, waiter in ipairs(redis.call('SPOP', key, budget)) do
    local job = loadJob(waiter)
    if job and job.d.state == 'suspended' and job.d.waitFor == name and n(job.d.waitSeq or '0') < seq then
      unindex(job)
      set(job, 'runAt', NOW_PADDED)
      set(job, 'updatedAt', NOW_TEXT)
      index(job.d, now)
      save(job)
      noteWork(seen, job.d.queue)
    end
  end
  local left = redis.call('SCARD', key)
  if left == 0 then redis.call('ZREM', k_wakesPending(), pendingMember(seq, id, name)) end
  return left
end

-- Carries on with the oldest pending wake, if any, within budget.
local function wakePending(budget, now, seen)
  local first = redis.call('ZRANGE', k_wakesPending(), 0, 0)[1]
  if not first then return end
  wakeWaiters(n(string.sub(first, 1, 16)), string.sub(first, 17, 52), string.sub(first, 53), budget, now, seen)
end
