-- schedule-list: reads the tenant's zset or every schedule's from past `after`: a member at
-- that position is its position, NUL, then the hash part (text, never byte 0xFF), so
-- position .. NUL .. 0xFF sorts after it and before every later position.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        unused
-- ARGV[2] tenant     '' = every tenant's
-- ARGV[3] after      a list position ('' = from the first)
-- ARGV[4] limit      most schedules answered
--
-- Answers at most `limit` schedules.
--- @include "keys"
--- @include "format"
--- @include "schedules"

local tenant, after = ARGV[2], ARGV[3]
local key = k_schedulesOrder()
if tenant ~= '' then key = k_schedulesTenant(tenant) end
local from = '-'
if after ~= '' then from = '(' .. after .. '\0\255' end
return schedulesOf(redis.call('ZRANGEBYLEX', key, from, '+', 'LIMIT', 0, n(ARGV[4])))
