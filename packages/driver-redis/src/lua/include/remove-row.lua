-- remove-row: removing one settled row: its index and list entries, its hash, its steps and its
-- logs. Shared by delete and both purge scripts.
--- @include "keys"
--- @include "members"
--- @include "indexes"

local function removeRow(job)
  local d = job.d
  unindex(job)
  local member = listMember(d)
  redis.call('ZREM', k_listQueue(d.queue), member)
  redis.call('ZREM', k_listName(d.name), member)
  if d.tenantId then redis.call('ZREM', k_listTenant(d.tenantId), member) end
  redis.call('DEL', k_job(d.id), k_steps(d.runId), k_stepOrder(d.runId), k_attempts(d.id), k_logs(d.id), k_logHead(d.id))
end

-- A queue left with no row leaves the queue set, and its counters (all 0) and lane names go.
local function forgetEmptyQueue(q)
  if redis.call('ZCARD', k_listQueue(q)) == 0 then
    redis.call('SREM', k_queues(), q)
    redis.call('DEL', k_counts(q), k_names(q))
  end
end
