-- pause: pauses a queue unless it is paused.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] queue      the queue
--
-- Answers the instant the pause that holds began.
--- @include "keys"

local at = redis.call('HGET', k_paused(), ARGV[2])
if at then return at end
redis.call('HSET', k_paused(), ARGV[2], ARGV[1])
return ARGV[1]
