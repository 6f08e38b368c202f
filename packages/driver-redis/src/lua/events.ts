/**
 * Stores one event and, in the same change, makes every row suspended on its name due now.
 * ARGV: now, id, name, event JSON, publishedAt, expiresAt. One wake for the queues it woke.
 */
export const PUBLISH_LUA = `
local now = n(ARGV[1])
local id, name, json = ARGV[2], ARGV[3], ARGV[4]
local seq = redis.call('INCR', k_eventSeq())
local member = string.format('%016.0f%016.0f', n(ARGV[5]), seq) .. ':' .. id
redis.call('HSET', k_event(id), 'json', json, 'name', name, 'expiresAt', ARGV[6], 'member', member)
redis.call('ZADD', k_eventsAll(), 0, member)
redis.call('ZADD', k_eventsName(name), 0, member)
redis.call('ZADD', k_eventExpiry(), ARGV[6], id)
local seen = {}
for _, waiter in ipairs(redis.call('SMEMBERS', k_waiters(name))) do
  local job = loadJob(waiter)
  if job and job.d.state == 'suspended' and job.d.waitFor == name then
    unindex(job.d)
    set(job, 'runAt', fmt(now))
    set(job, 'updatedAt', fmt(now))
    index(job.d, now)
    save(job)
    noteWork(seen, job.d.queue)
  else
    redis.call('SREM', k_waiters(name), waiter)
  end
end
wake(seen)
return seq
`;

/**
 * One bounded stretch of events in publish order, unexpired only. ARGV: now, name ('' = every
 * event), start bound (ZRANGE BYLEX), cap. Answers {event JSONs, last member scanned or ''}.
 */
export const EVENT_WALK_LUA = `
local now = n(ARGV[1])
local key = k_eventsAll()
if ARGV[2] ~= '' then key = k_eventsName(ARGV[2]) end
local members = redis.call('ZRANGE', key, ARGV[3], '+', 'BYLEX', 'LIMIT', 0, n(ARGV[4]))
local out = {}
for _, member in ipairs(members) do
  local found = redis.call('HMGET', k_event(string.sub(member, 34)), 'json', 'expiresAt')
  if found[1] and n(found[2]) > now then out[#out + 1] = found[1] end
end
return { out, members[#members] or '' }
`;

/** Removes up to `cap` expired events (expiresAt <= now). ARGV: now, cap. Answers the count. */
export const EVENT_PURGE_LUA = `
local ids = redis.call('ZRANGEBYSCORE', k_eventExpiry(), '-inf', ARGV[1], 'LIMIT', 0, n(ARGV[2]))
for _, id in ipairs(ids) do
  local found = redis.call('HMGET', k_event(id), 'name', 'member')
  if found[1] then
    redis.call('ZREM', k_eventsAll(), found[2])
    redis.call('ZREM', k_eventsName(found[1]), found[2])
  end
  redis.call('DEL', k_event(id))
  redis.call('ZREM', k_eventExpiry(), id)
end
return #ids
`;
