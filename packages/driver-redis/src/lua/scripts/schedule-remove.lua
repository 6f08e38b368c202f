-- schedule-remove: removes the schedule and its index members when stored at `revision`. An
-- emptied tenant zset goes with its last member, so nothing outlives the schedules.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        unused
-- ARGV[2] position   the schedule's list position
-- ARGV[3] name       the schedule's name
-- ARGV[4] tenant     '' = none
-- ARGV[5] revision   the revision the removal expects
--
-- Answers 1, else 0.
--- @include "keys"
--- @include "format"
--- @include "schedules"

local position, name, tenant = ARGV[2], ARGV[3], ARGV[4]
local key = scheduleKey(tenant, name)
local stored = redis.call('HGET', key, 'revision')
if not stored or n(stored) ~= n(ARGV[5]) then return 0 end
local member = scheduleMember(position, tenant, name)
redis.call('DEL', key)
redis.call('ZREM', k_schedulesOrder(), member)
if tenant ~= '' then redis.call('ZREM', k_schedulesTenant(tenant), member) end
redis.call('ZREM', k_schedulesDue(), member)
return 1
