-- event-purge: removes up to `cap` expired events (expiresAt <= now), the earliest expired
-- first, from every index.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] cap        most events removed
--
-- Answers the count.
--- @include "keys"
--- @include "format"

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
