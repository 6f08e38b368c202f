-- advance-mark: raises a named mark when it is unset or lower. Values are safe integers, exact
-- as Lua numbers; the given text is stored as it came.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        unused
-- ARGV[2] name       the mark's name
-- ARGV[3] value      the value it rises to
--
-- Answers 1 when the mark moved, else 0.
--- @include "keys"
--- @include "format"

local current = redis.call('HGET', k_marks(), ARGV[2])
if current and n(current) >= n(ARGV[3]) then return 0 end
redis.call('HSET', k_marks(), ARGV[2], ARGV[3])
return 1
