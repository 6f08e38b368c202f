-- wake-more: the next {{WAKE_BATCH}} waiters of a publish (src/lua/events.ts).
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] seq        the event's seq
-- ARGV[3] id         the event's id
-- ARGV[4] name       the event's name
--
-- Answers how many are left.
--- @include "format"
--- @include "staging"
--- @include "wake"
--- @include "wake-waiters"

local now = n(ARGV[1])
local seen = {}
local left = wakeWaiters(n(ARGV[2]), ARGV[3], ARGV[4], {{WAKE_BATCH}}, now, seen)
flush()
wake(seen)
return left
