-- leases: named leases (a hash: holder, expiresAt) and counted slots (a zset: holder by
-- expiresAt). Expired means expiresAt <= now, on the driver's clock.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] op         acquire | renew | release | holder | acquireSlot | renewSlot | releaseSlot
-- ARGV[3] name       the lease's name, or the slot key
-- ARGV[4] holder     who holds it
-- ARGV[5] ttlMs      how long a grant lasts
-- ARGV[6] limit      a slot's holders at most
--
-- Answers 1 (granted / done) or 0; `holder` answers {holder, expiresAt} of the unexpired lease,
-- or false.
--- @include "keys"
--- @include "format"

local now = n(ARGV[1])
local op, name, holder, ttl = ARGV[2], ARGV[3], ARGV[4], n(ARGV[5])
local expires = fmt(now + (ttl or 0))

if op == 'acquire' or op == 'renew' or op == 'release' or op == 'holder' then
  local key = k_lease(name)
  local current = redis.call('HMGET', key, 'holder', 'expiresAt')
  local live = current[1] ~= false and n(current[2]) > now
  local own = live and current[1] == holder
  if op == 'holder' then
    if live then return { current[1], current[2] } end
    return false
  end
  if op == 'acquire' and (own or not live) or op == 'renew' and own then
    redis.call('HSET', key, 'holder', holder, 'expiresAt', expires)
    return 1
  end
  if op == 'release' and own then
    redis.call('DEL', key)
    return 1
  end
  return 0
end

local key = k_slot(name)
redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[1])
local own = redis.call('ZSCORE', key, holder) ~= false
if op == 'acquireSlot' then
  if own or redis.call('ZCARD', key) < n(ARGV[6]) then
    redis.call('ZADD', key, expires, holder)
    return 1
  end
  return 0
end
if not own then return 0 end
if op == 'renewSlot' then
  redis.call('ZADD', key, expires, holder)
else
  redis.call('ZREM', key, holder)
end
return 1
