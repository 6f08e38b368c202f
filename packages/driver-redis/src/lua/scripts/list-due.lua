-- list-due: how many rows stored as `state` (delayed or suspended) are due, and so read ready:
-- over one queue, or every queue. A `ready` page walks those indexes only this far.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] state      delayed | suspended
-- ARGV[3] queue      '' = every queue
--
-- Answers the count.
--- @include "keys"

local queues = { ARGV[3] }
if ARGV[3] == '' then queues = redis.call('SMEMBERS', k_queues()) end
local due = 0
for _, q in ipairs(queues) do
  due = due + redis.call('ZCOUNT', k_state(ARGV[2], q), '-inf', ARGV[1])
end
return due
