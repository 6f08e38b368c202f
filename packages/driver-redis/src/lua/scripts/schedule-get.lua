-- schedule-get: one stored schedule.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        unused
-- ARGV[2] name       the schedule's name
-- ARGV[3] tenant     '' = none
--
-- Answers the schedule, or false.
--- @include "schedules"

local flat = redis.call('HGETALL', scheduleKey(ARGV[3], ARGV[2]))
if #flat == 0 then return false end
return flat
