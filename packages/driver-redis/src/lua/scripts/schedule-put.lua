-- schedule-put: lands only when the stored revision is `revision` (0: none stored): replaces
-- the hash with the write, revision + 1, createdAt kept (now on a create) and updatedAt now, and
-- keeps the indexes in step.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] position   the schedule's list position (schedule-position.ts)
-- ARGV[3] name       the schedule's name
-- ARGV[4] tenant     '' = none
-- ARGV[5] revision   the revision the write expects
-- ARGV[6] paused     '1' | '0'
-- ARGV[7] nextAt     epoch ms
-- ARGV[8..]          field/value pairs of the write's other fields (the ones set)
--
-- Answers the hash, or false.
--- @include "keys"
--- @include "format"
--- @include "now"
--- @include "schedules"

local position, name, tenant, revision = ARGV[2], ARGV[3], ARGV[4], n(ARGV[5])
local key = scheduleKey(tenant, name)
local stored = redis.call('HMGET', key, 'revision', 'createdAt')
if n(stored[1] or '0') ~= revision then return false end

local fields = { 'paused', ARGV[6], 'nextAt', ARGV[7], 'revision', fmt(revision + 1),
  'createdAt', stored[2] or NOW_TEXT, 'updatedAt', NOW_TEXT }
for i = 8, #ARGV do fields[#fields + 1] = ARGV[i] end
-- Replaced whole: an optional field the write leaves out must not outlive it.
redis.call('DEL', key)
redis.call('HSET', key, unpack(fields))

local member = scheduleMember(position, tenant, name)
if not stored[1] then
  redis.call('ZADD', k_schedulesOrder(), 0, member)
  if tenant ~= '' then redis.call('ZADD', k_schedulesTenant(tenant), 0, member) end
end
if ARGV[6] == '1' then
  redis.call('ZREM', k_schedulesDue(), member)
else
  redis.call('ZADD', k_schedulesDue(), ARGV[7], member)
end
return redis.call('HGETALL', key)
