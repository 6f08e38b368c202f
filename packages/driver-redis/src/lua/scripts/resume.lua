-- resume: resumes a queue (nothing when it is not paused) and wakes its workers, as an enqueue
-- does.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        unused
-- ARGV[2] queue      the queue
--
-- Answers 1 when a pause was removed, else 0.
--- @include "keys"
--- @include "wake"

local removed = redis.call('HDEL', k_paused(), ARGV[2])
wake({ ARGV[2] })
return removed
