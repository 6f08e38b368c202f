/**
 * One claim, atomically. ARGV: now, limit, workerId, visibilityTimeoutMs, lapsed-error JSON,
 * queue count, queues..., drop count, dropExhausted names..., names count (0: every name),
 * names...
 * First each queue's due timers (delayed/suspended rows whose runAt came) move into its due
 * set, and each lapsed lease (visibleAt <= now) moves there too, or, on its final attempt, into
 * the spent set. Each row moves once, so the work is bounded by what became due.
 * Then the first `limit` due rows over all queues (priority desc, runAt, seq) are claimed and
 * the first `limit` spent rows are buried; with names, rows of other names are skipped (they
 * stay in their due or spent set). Answers {{job, resumed}...}, {job...}.
 */
export const CLAIM_LUA = `
local now = n(ARGV[1])
local limit = n(ARGV[2])
local worker = ARGV[3]
local visibility = n(ARGV[4])
local lapsedError = ARGV[5]
local queueCount = n(ARGV[6])
local queues = {}
for i = 1, queueCount do queues[i] = ARGV[6 + i] end
local drop = {}
local dropCount = n(ARGV[7 + queueCount])
for i = 1, dropCount do drop[ARGV[7 + queueCount + i]] = true end
local namesAt = 8 + queueCount + dropCount
local named = nil
if n(ARGV[namesAt]) > 0 then
  named = {}
  for i = 1, n(ARGV[namesAt]) do named[ARGV[namesAt + i]] = true end
end

for _, q in ipairs(queues) do
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', k_timers(q), '-inf', ARGV[1])) do
    redis.call('ZREM', k_timers(q), id)
    local f = redis.call('HMGET', k_job(id), 'priority', 'runAt', 'seq')
    if f[1] then
      redis.call('ZADD', k_due(q), 0, claimMember({ id = id, priority = f[1], runAt = f[2], seq = f[3] }))
    end
  end
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', k_leases(q), '-inf', ARGV[1])) do
    redis.call('ZREM', k_leases(q), id)
    local f = redis.call('HMGET', k_job(id), 'priority', 'runAt', 'seq', 'attempts', 'maxAttempts')
    if f[1] then
      local member = claimMember({ id = id, priority = f[1], runAt = f[2], seq = f[3] })
      if n(f[4]) >= n(f[5]) then
        redis.call('ZADD', k_spent(q), 0, member)
      else
        redis.call('ZADD', k_due(q), 0, member)
      end
    end
  end
end

-- Members start with 42 digits (priority, runAt, seq); compared as numbers, not by locale.
local function before(a, b)
  for _, span in ipairs({ { 1, 10 }, { 11, 26 }, { 27, 42 } }) do
    local x, y = n(string.sub(a, span[1], span[2])), n(string.sub(b, span[1], span[2]))
    if x ~= y then return x < y end
  end
  return a < b
end

-- The first limit members of one queue's set whose job is of a wanted name, in set order.
-- Without names that is the set's head; with names, members of other names are stepped over.
local function headOf(key)
  if not named then return redis.call('ZRANGE', key, 0, limit - 1) end
  local picked, start = {}, 0
  while #picked < limit do
    local page = redis.call('ZRANGE', key, start, start + limit * 4 - 1)
    if #page == 0 then break end
    for _, member in ipairs(page) do
      if named[redis.call('HGET', k_job(string.sub(member, 43)), 'name')] then
        picked[#picked + 1] = member
        if #picked == limit then break end
      end
    end
    start = start + #page
  end
  return picked
end

local function firstOf(keyOf)
  local all = {}
  for _, q in ipairs(queues) do
    for _, member in ipairs(headOf(keyOf(q))) do all[#all + 1] = member end
  end
  table.sort(all, before)
  local jobs = {}
  for i = 1, math.min(limit, #all) do
    local job = loadJob(string.sub(all[i], 43))
    if job then jobs[#jobs + 1] = job end
  end
  return jobs
end

local claimed = {}
for _, job in ipairs(firstOf(k_due)) do
  unindex(job.d)
  local resumed = job.d.state == 'suspended'
  set(job, 'state', 'running')
  set(job, 'claim', fmt(n(job.d.claim) + 1))
  set(job, 'claimedBy', worker)
  set(job, 'visibleAt', fmt(now + visibility))
  set(job, 'waitFor', nil)
  set(job, 'updatedAt', fmt(now))
  if not resumed then set(job, 'attempts', fmt(n(job.d.attempts) + 1)) end
  index(job.d, now)
  save(job)
  claimed[#claimed + 1] = { flat(job), resumed and 1 or 0 }
end

local buried = {}
for _, job in ipairs(firstOf(k_spent)) do
  unindex(job.d)
  local state = 'dead'
  if drop[job.d.name] then state = 'failed' end
  finish(job, state, now)
  set(job, 'lastError', lapsedError)
  set(job, 'updatedAt', fmt(now))
  index(job.d, now)
  save(job)
  buried[#buried + 1] = flat(job)
end

return { claimed, buried }
`;
