-- schedule-due: the unpaused schedules with nextAt <= upTo, by nextAt then member (list)
-- order: reads only the due members, whatever is stored.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        unused
-- ARGV[2] upTo       epoch ms
-- ARGV[3] limit      most schedules answered
--
-- Answers at most `limit` schedules.
--- @include "keys"
--- @include "format"
--- @include "schedules"

local due = redis.call('ZRANGE', k_schedulesDue(), '-inf', ARGV[2], 'BYSCORE', 'LIMIT', 0, n(ARGV[3]))
return schedulesOf(due)
