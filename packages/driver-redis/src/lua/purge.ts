/**
 * Removes one settled row: its index and list entries, its hash and its steps. Shared by both
 * purge scripts.
 */
const REMOVE_ROW_LUA = `
local function removeRow(job)
  local d = job.d
  unindex(d)
  local member = listMember(d)
  redis.call('ZREM', k_listAll(), member)
  redis.call('ZREM', k_listQueue(d.queue), member)
  redis.call('ZREM', k_listName(d.name), member)
  if d.tenantId then redis.call('ZREM', k_listTenant(d.tenantId), member) end
  redis.call('DEL', k_job(d.id), k_steps(d.runId), k_stepOrder(d.runId))
end

-- A queue left with no row leaves the queue set.
local function forgetEmptyQueue(q)
  if redis.call('ZCARD', k_listQueue(q)) == 0 then redis.call('SREM', k_queues(), q) end
end
`;

/**
 * Removes settled rows of the given states with finishedAt < olderThan, their list entries and
 * their steps; at most `cap` per call (the caller repeats while a call fills its cap), so one
 * call never holds the server long. ARGV: now, olderThan, cap, state count, states...
 * Answers how many rows went.
 */
export const PURGE_LUA = `${REMOVE_ROW_LUA}
local olderThan = ARGV[2]
local cap = n(ARGV[3])
local states = {}
for i = 1, n(ARGV[4]) do states[i] = ARGV[4 + i] end
local removed = 0
for _, q in ipairs(redis.call('SMEMBERS', k_queues())) do
  for _, state in ipairs(states) do
    if removed >= cap then break end
    local ids = redis.call('ZRANGEBYSCORE', k_state(state, q), '-inf', '(' .. olderThan, 'LIMIT', 0, cap - removed)
    for _, id in ipairs(ids) do
      local job = loadJob(id)
      if job then
        removeRow(job)
        removed = removed + 1
      else
        redis.call('ZREM', k_state(state, q), id)
      end
    end
  end
  forgetEmptyQueue(q)
end
return removed
`;

/**
 * The same removal among chosen ids (at most MAX_JOB_PAGE, screened by core).
 * ARGV: now, olderThan, state count, states..., ids... Answers how many rows went.
 */
export const PURGE_IDS_LUA = `${REMOVE_ROW_LUA}
local olderThan = n(ARGV[2])
local stateCount = n(ARGV[3])
local states = {}
for i = 1, stateCount do states[ARGV[3 + i]] = true end
local removed = 0
for i = 4 + stateCount, #ARGV do
  local job = loadJob(ARGV[i])
  if job and states[job.d.state] and job.d.finishedAt and n(job.d.finishedAt) < olderThan then
    removeRow(job)
    forgetEmptyQueue(job.d.queue)
    removed = removed + 1
  end
end
return removed
`;
