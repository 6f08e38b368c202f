/**
 * Removes one settled row: its index and list entries, its hash, its steps and its logs. Shared by both
 * purge scripts.
 */
export const REMOVE_ROW_LUA = `
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
`;

/**
 * Removes at most `limit` settled rows of the given states with finishedAt < olderThan, oldest
 * finishedAt first (then insertion order), with their list entries and steps; the caller calls
 * again for more. Reads at most `limit` entries per state. ARGV: now, olderThan, limit, state
 * count, states... Answers how many rows went.
 */
export const PURGE_LUA = `${REMOVE_ROW_LUA}
local limit = n(ARGV[3])
local picked = {}
for i = 1, n(ARGV[4]) do
  local key = k_finished(ARGV[4 + i])
  local page = redis.call('ZRANGE', key, '-inf', '(' .. ARGV[2], 'BYSCORE', 'LIMIT', 0, limit, 'WITHSCORES')
  for j = 1, #page, 2 do picked[#picked + 1] = { n(page[j + 1]), page[j], key } end
end
table.sort(picked, function(a, b)
  if a[1] ~= b[1] then return a[1] < b[1] end
  return a[2] < b[2]
end)
local removed = 0
local queues = {}
for i = 1, math.min(limit, #picked) do
  local job = loadJob(string.sub(picked[i][2], 17))
  if job then
    removeRow(job)
    queues[job.d.queue] = true
    removed = removed + 1
  else
    redis.call('ZREM', picked[i][3], picked[i][2])
  end
end
flush()
for q in pairs(queues) do forgetEmptyQueue(q) end
return removed
`;

/**
 * The same removal among chosen ids (at most MAX_JOB_PAGE, screened by core): at most `limit`
 * of the matching rows, oldest finishedAt first, then insertion order.
 * ARGV: now, olderThan, limit, state count, states..., ids... Answers how many rows went.
 */
export const PURGE_IDS_LUA = `${REMOVE_ROW_LUA}
local olderThan = n(ARGV[2])
local limit = n(ARGV[3])
local stateCount = n(ARGV[4])
local states = {}
for i = 1, stateCount do states[ARGV[4 + i]] = true end
local matched = {}
for i = 5 + stateCount, #ARGV do
  local job = loadJob(ARGV[i])
  if job and states[job.d.state] and job.d.finishedAt and n(job.d.finishedAt) < olderThan then
    matched[#matched + 1] = job
  end
end
table.sort(matched, function(a, b)
  if n(a.d.finishedAt) ~= n(b.d.finishedAt) then return n(a.d.finishedAt) < n(b.d.finishedAt) end
  return n(a.d.seq) < n(b.d.seq)
end)
local removed = 0
for i = 1, math.min(limit, #matched) do
  removeRow(matched[i])
  removed = removed + 1
end
flush()
for i = 1, math.min(limit, #matched) do forgetEmptyQueue(matched[i].d.queue) end
return removed
`;
