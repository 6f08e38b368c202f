-- publish: stores one event, indexes it, and wakes the first {{WAKE_BATCH}} waiters of its name
-- (src/lua/events.ts); wake-more.lua wakes the rest. The live index keeps only events no other of
-- the name dominates (published no earlier AND expiring no earlier): ordered by expiresAt, their
-- publishedAt falls, so the first unexpired one has the latest publishedAt of every unexpired
-- event. Each event leaves it at most once.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] id         the event's id
-- ARGV[3] name       the event's name
-- ARGV[4] json       the event, JSON text
-- ARGV[5] publishedAt epoch ms
-- ARGV[6] expiresAt  epoch ms
--
-- Answers {seq, waiters left}.
--- @include "keys"
--- @include "format"
--- @include "staging"
--- @include "wake"
--- @include "wake-waiters"

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
  left = wakeWaiters(seq, id, name, {{WAKE_BATCH}}, now, seen)
end
flush()
wake(seen)
return { seq, left }
