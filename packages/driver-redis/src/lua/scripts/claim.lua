-- claim: one claim, atomically, doing work bounded by its limit whatever the backlog.
-- Queues in the `paused` hash are dropped first (one HEXISTS each).
-- Rows wait in lanes, one per (queue, name): a claim reads the lanes of its names, or without
-- names those of every name the queue holds (its `names` set), so its work is bounded by its
-- limit times the lanes it reads, whatever the backlog. First, per lane, the first `limit` due
-- waiting rows (delayed/suspended rows whose runAt came) in claim order move into the lane's due
-- set, found one priority at a time (promoteWaiting), so no due row that belongs among the
-- first `limit` is left behind; and the earliest limit + PROMOTE_SLACK lapsed leases
-- (visibleAt <= now) move there too, or, on their final attempt, into its spent set. The rest
-- wait for the next claim: each claim moves more leases than it can take, so nothing starves.
-- Then the first `limit` due rows (priority desc, runAt, seq) are claimed and the first `limit`
-- spent rows are buried, read from the heads of the lanes read (merged), told in one settle
-- notice (tellSettled). Each claimed row carries a claim note (token, prior state, whether the
-- attempt counted), kept in its worker's `claims` hash while it runs, so a caller that lost the
-- answer can give the rows back (unclaim.lua). A publish whose waiters are not all woken yet
-- gets a batch of limit + PROMOTE_SLACK more woken first. Each row taken is told on the lifecycle
-- stream as `active` (a lapsed lease: `stalled` first), each buried one as `stalled` then the
-- state it settled in.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] limit      most rows claimed, and most spent rows buried
-- ARGV[3] workerId   the claiming worker
-- ARGV[4] visibility the lease, ms
-- ARGV[5] lapsedError the error JSON a buried row gets
-- ARGV[6] token      this claim's token (unclaim.lua gives its rows back)
-- ARGV[7] queueCount how many queues follow
-- ARGV[8..]          the queues; then a count and the job names whose buried rows go to failed
--                    rather than dead (dropExhausted); then a count (0: every name) and the
--                    names to claim; then (the last ARGV) the lifecycle retention
--
-- Answers {claimed row...} (one NUL-joined string each, {{CLAIM_REPLY_ROW}}: the fields
-- CLAIM_REPLY_FIELDS of src/lua/claim.ts names, then 1 when it resumed, then name and value of
-- each {{CLAIM_REPLY_OPTIONAL}} field held), {buried job...}, and the index members read.
-- {{PROMOTE_SLACK}}: PROMOTE_SLACK of src/lua/claim.ts.
--- @include "keys"
--- @include "format"
--- @include "now"
--- @include "staging"
--- @include "rows"
--- @include "members"
--- @include "indexes"
--- @include "wake"
--- @include "finish"
--- @include "attempts"
--- @include "wake-waiters"
--- @include "claim-ready"
--- @include "settled"
--- @include "lifecycle"

local now = n(ARGV[1])
local limit = n(ARGV[2])
local worker = ARGV[3]
local visibility = n(ARGV[4])
local lapsedError = ARGV[5]
local token = ARGV[6]
local queueCount = n(ARGV[7])
local queues = {}
-- A paused queue is left out before any lane is read: nothing of it is claimed or buried.
local pausedQueues = k_paused()
for i = 1, queueCount do
  local q = ARGV[7 + i]
  if redis.call('HEXISTS', pausedQueues, q) == 0 then queues[#queues + 1] = q end
end
local drop = {}
local dropCount = n(ARGV[8 + queueCount])
for i = 1, dropCount do drop[ARGV[8 + queueCount + i]] = true end
local namesAt = 9 + queueCount + dropCount
local names = nil
if n(ARGV[namesAt]) > 0 then
  names = {}
  for i = 1, n(ARGV[namesAt]) do names[i] = ARGV[namesAt + i] end
end
local reach = limit + {{PROMOTE_SLACK}}
local read = 0
local OPTIONAL = { {{CLAIM_REPLY_OPTIONAL}} }

local function claimReply(d, resumed)
  local row = {{CLAIM_REPLY_ROW}}
    .. '\0' .. (resumed and '1' or '0')
  for _, field in ipairs(OPTIONAL) do
    if d[field] then row = row .. '\0' .. field .. '\0' .. d[field] end
  end
  return row
end

-- The lanes to read for queue q: one per wanted name, or one per name the queue holds.
local queueNames = {}
local function lanes(q, byName)
  local wanted = names or queueNames[q]
  if not wanted then
    wanted = redis.call('SMEMBERS', k_names(q))
    queueNames[q] = wanted
  end
  local out = {}
  for i, name in ipairs(wanted) do out[i] = byName(qn(q, name)) end
  return out
end

-- Lapsed leases of one lane into its due set (or, on their final attempt, its spent set),
-- earliest expiry first, at most reach of them.
local function promoteLapsed(q, key)
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', key, '-inf', ARGV[1], 'LIMIT', 0, reach)) do
    read = read + 1
    local f = redis.call('HMGET', k_job(id), 'priority', 'runAt', 'seq', 'name', 'attempts', 'maxAttempts')
    zdel(key, id)
    if f[1] then
      local lane = qn(q, f[4])
      local member = claimMember({ id = id, priority = f[1], runAt = f[2], seq = f[3] })
      -- Marked, so the change that next moves the row knows to take it out of due or spent.
      redis.call('HSET', k_job(id), 'lapsed', '1')
      if n(f[5]) >= n(f[6]) then
        zput(k_spentName(lane), 0, member)
      else
        zput(k_dueName(lane), 0, member)
      end
    end
  end
end

-- Due waiting rows of one lane into its due set, in claim order, at most limit of them. The
-- waiting set is in claim order too, so the first member of a priority is its oldest: a priority
-- whose oldest is not due holds no due row and costs that one read. A priority below the lane's
-- limit-th claimable row is never walked (none of its rows can be among the first limit).
local function promoteWaiting(dueKey, key)
  local room = limit
  local floor = nil
  local from = '-'
  while room > 0 do
    local first = redis.call('ZRANGE', key, from, '+', 'BYLEX', 'LIMIT', 0, 1)[1]
    if not first then return end
    read = read + 1
    local rank = string.sub(first, 1, 10)
    if floor == nil then
      local last = redis.call('ZRANGE', dueKey, limit - 1, limit - 1)[1]
      floor = last and string.sub(last, 1, 10) or false
    end
    if floor and rank > floor then return end
    if string.sub(first, 11, 26) <= NOW_PADDED then
      local due = { first }
      if room > 1 then
        local rest = redis.call('ZRANGE', key, '(' .. first, '[' .. rank .. NOW_PADDED .. '~',
          'BYLEX', 'LIMIT', 0, room - 1)
        for _, member in ipairs(rest) do due[#due + 1] = member end
        read = read + #rest
      end
      for _, member in ipairs(due) do
        zdel(key, member)
        zput(dueKey, 0, member)
      end
      room = room - #due
    end
    -- Past every member of this priority: '~' sorts after every digit and id character.
    from = '(' .. rank .. '~'
  end
end

local seen = {}
wakePending(reach, now, seen)
wake(seen)
-- Woken rows' writes land before promotion reads the timer sets.
flush()

for _, q in ipairs(queues) do
  local dueKeys = lanes(q, k_dueName)
  for i, key in ipairs(lanes(q, k_waitingName)) do promoteWaiting(dueKeys[i], key) end
  for _, key in ipairs(lanes(q, k_leasesName)) do promoteLapsed(q, key) end
end
flush()

-- Members start with 42 digits (priority, runAt, seq), compared as numbers, not by locale:
-- each entry carries its three numbers, read once, for the merge of several lanes.
local function before(a, b)
  for i = 3, 5 do
    if a[i] ~= b[i] then return a[i] < b[i] end
  end
  return a[1] < b[1]
end

-- The first limit rows over the heads of every lane; an entry whose row is gone leaves its set.
-- One lane is in order as read; several are merged.
local function firstOf(byName)
  local all = {}
  local laneCount = 0
  for _, q in ipairs(queues) do
    for _, key in ipairs(lanes(q, byName)) do
      laneCount = laneCount + 1
      for _, member in ipairs(redis.call('ZRANGE', key, 0, limit - 1)) do
        read = read + 1
        all[#all + 1] = { member, key }
      end
    end
  end
  if laneCount > 1 then
    for _, entry in ipairs(all) do
      local member = entry[1]
      entry[3] = n(string.sub(member, 1, 10))
      entry[4] = n(string.sub(member, 11, 26))
      entry[5] = n(string.sub(member, 27, 42))
    end
    table.sort(all, before)
  end
  local jobs = {}
  for i = 1, math.min(limit, #all) do
    local job = loadJob(string.sub(all[i][1], 43))
    if job then
      job.member = all[i][1]
      jobs[#jobs + 1] = job
    else
      redis.call('ZREM', all[i][2], all[i][1])
    end
  end
  return jobs
end

local visibleAt = fmt(now + visibility)
local ownClaims = k_claims(worker)
local readyNote = token .. ':ready:1'

-- Any other claimable row: a delayed or suspended one whose time came, or a lapsed lease.
local function claimOther(job)
  unindex(job)
  local prior = job.d.state
  local resumed = prior == 'suspended'
  -- A lapsed lease taken again goes back as ready: its old holder's fence no longer holds.
  if prior == 'running' then
    tellRow('stalled', job.d)
    set(job, 'attemptSeq', recordAttempt(job.d, 'lapsed', nil))
    prior = 'ready'
  end
  set(job, 'claimedAt', NOW_TEXT)
  set(job, 'state', 'running')
  set(job, 'claim', fmt(n(job.d.claim) + 1))
  set(job, 'claimedBy', worker)
  set(job, 'visibleAt', visibleAt)
  set(job, 'waitFor', nil)
  set(job, 'updatedAt', NOW_TEXT)
  if not resumed then set(job, 'attempts', fmt(n(job.d.attempts) + 1)) end
  -- The note lives in the worker's claims hash only (index writes it), not in the row.
  job.d.claimNote = token .. ':' .. prior .. ':' .. (resumed and '0' or '1')
  index(job.d, now)
  save(job)
  tellRow('active', job.d)
  return claimReply(job.d, resumed)
end

local claimed = {}
for _, job in ipairs(firstOf(k_dueName)) do
  if job.d.state == 'ready' then
    local row = claimReady(job.d, job.member, worker, ownClaims, readyNote, visibleAt)
    tellRow('active', row)
    claimed[#claimed + 1] = claimReply(row, false)
  else
    claimed[#claimed + 1] = claimOther(job)
  end
end
flush()

local buried = {}
local buriedIds = {}
for _, job in ipairs(firstOf(k_spentName)) do
  tellRow('stalled', job.d)
  set(job, 'attemptSeq', recordAttempt(job.d, 'lapsed', lapsedError))
  unindex(job)
  local state = 'dead'
  if drop[job.d.name] then state = 'failed' end
  finish(job, state, now)
  set(job, 'lastError', lapsedError)
  set(job, 'updatedAt', NOW_TEXT)
  index(job.d, now)
  save(job)
  tellRow(state, job.d)
  buried[#buried + 1] = flat(job)
  buriedIds[#buriedIds + 1] = job.d.id
end
flush()
tellSettled(buriedIds)

return { claimed, buried, read }
