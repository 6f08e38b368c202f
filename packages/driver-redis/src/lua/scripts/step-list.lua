-- step-list: a run's steps in write order, read in one step.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        unused
-- ARGV[2] runId      the run
--
-- Answers the step JSON of each, in write order.
--- @include "keys"
--- @include "sliced"

local names = redis.call('ZRANGE', k_stepOrder(ARGV[2]), 0, -1)
return callSliced('HMGET', k_steps(ARGV[2]), names)
