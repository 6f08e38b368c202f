/** Waiters one script wakes at most (D3): publish wakes the rest in further scripts. */
export const WAKE_BATCH = 1_000;

/**
 * Waking the waiters of a published event, in bounded batches. Publish moves the name's waiter
 * set aside under the event (`waking`), so the set it wakes is exactly the waiters at the
 * publish; a row woken from it must still be suspended on the name since before the event
 * (`waitSeq` < the event's seq), so a row that re-suspended after the publish is not woken by
 * it. An event whose set is not empty yet stays in `wakesPending`, so the rest is woken even if
 * the publisher stops half way (claims carry on with it).
 */
export const WAKE_WAITERS_LUA = `
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
`;

/**
 * Stores one event, indexes it, and wakes the first WAKE_BATCH waiters of its name.
 * ARGV: now, id, name, event JSON, publishedAt, expiresAt. Answers {seq, waiters left}.
 * The live index keeps only events no other of the name dominates (published no earlier AND
 * expiring no earlier): ordered by expiresAt, their publishedAt falls, so the first unexpired
 * one has the latest publishedAt of every unexpired event. Each event leaves it at most once.
 */
export const PUBLISH_LUA = `${WAKE_WAITERS_LUA}
local now = n(ARGV[1])
local id, name, json = ARGV[2], ARGV[3], ARGV[4]
local publishedAt = n(ARGV[5])
local seq = redis.call('INCR', k_eventSeq())
local order = string.format('%016.0f', seq) .. ':' .. id
local byTime = string.format('%016.0f%016.0f', publishedAt, seq) .. ':' .. id
local live = string.format('%016.0f', publishedAt) .. id
redis.call('HSET', k_event(id), 'json', json, 'name', name, 'expiresAt', ARGV[6],
  'member', byTime, 'order', order, 'live', live)
redis.call('ZADD', k_eventsOrder(), 0, order)
redis.call('ZADD', k_eventsNameOrder(name), 0, order)
redis.call('ZADD', k_eventsName(name), 0, byTime)
redis.call('ZADD', k_eventExpiry(), ARGV[6], id)

local liveKey = k_eventsLive(name)
local above = redis.call('ZRANGE', liveKey, ARGV[6], '+inf', 'BYSCORE', 'LIMIT', 0, 1)[1]
if not above or n(string.sub(above, 1, 16)) < publishedAt then
  redis.call('ZADD', liveKey, ARGV[6], live)
  local dominated = true
  while dominated do
    local page = redis.call('ZRANGE', liveKey, ARGV[6], '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, 100)
    dominated = false
    for _, member in ipairs(page) do
      if member ~= live then
        if n(string.sub(member, 1, 16)) > publishedAt then break end
        redis.call('ZREM', liveKey, member)
        dominated = true
      end
    end
  end
end

local left = 0
local seen = {}
if redis.call('EXISTS', k_waiters(name)) == 1 then
  redis.call('RENAME', k_waiters(name), k_waking(id))
  redis.call('ZADD', k_wakesPending(), 0, pendingMember(seq, id, name))
  left = wakeWaiters(seq, id, name, ${WAKE_BATCH}, now, seen)
end
flush()
wake(seen)
return { seq, left }
`;

/** The next batch of a publish's waiters. ARGV: now, seq, event id, name. Answers how many are left. */
export const WAKE_MORE_LUA = `${WAKE_WAITERS_LUA}
local now = n(ARGV[1])
local seen = {}
local left = wakeWaiters(n(ARGV[2]), ARGV[3], ARGV[4], ${WAKE_BATCH}, now, seen)
flush()
wake(seen)
return left
`;

/**
 * One bounded stretch of unexpired events. ARGV: now, index ('order': publish order, or 'time':
 * by (publishedAt, seq), per name only), name ('' = every event), start bound (ZRANGE BYLEX), cap.
 * Answers {{event JSON, seq}...}, last member scanned or ''.
 */
export const EVENT_WALK_LUA = `
local now = n(ARGV[1])
local byTime = ARGV[2] == 'time'
local key = k_eventsOrder()
if byTime then key = k_eventsName(ARGV[3]) elseif ARGV[3] ~= '' then key = k_eventsNameOrder(ARGV[3]) end
local members = redis.call('ZRANGE', key, ARGV[4], '+', 'BYLEX', 'LIMIT', 0, n(ARGV[5]))
local out = {}
for _, member in ipairs(members) do
  local id, seq
  if byTime then
    id, seq = string.sub(member, 34), string.sub(member, 17, 32)
  else
    id, seq = string.sub(member, 18), string.sub(member, 1, 16)
  end
  local found = redis.call('HMGET', k_event(id), 'json', 'expiresAt')
  if found[1] and n(found[2]) > now then out[#out + 1] = { found[1], n(seq) } end
end
return { out, members[#members] or '' }
`;

/**
 * Removes up to `cap` expired events (expiresAt <= now), the earliest expired first, from every
 * index. ARGV: now, cap. Answers the count.
 */
export const EVENT_PURGE_LUA = `
local ids = redis.call('ZRANGEBYSCORE', k_eventExpiry(), '-inf', ARGV[1], 'LIMIT', 0, n(ARGV[2]))
for _, id in ipairs(ids) do
  local found = redis.call('HMGET', k_event(id), 'name', 'member', 'order', 'live')
  if found[1] then
    redis.call('ZREM', k_eventsName(found[1]), found[2])
    redis.call('ZREM', k_eventsOrder(), found[3])
    redis.call('ZREM', k_eventsNameOrder(found[1]), found[3])
    redis.call('ZREM', k_eventsLive(found[1]), found[4])
  end
  redis.call('DEL', k_event(id))
  redis.call('ZREM', k_eventExpiry(), id)
end
return #ids
`;
