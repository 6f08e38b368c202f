/**
 * Lua every script shares: reading and writing a job hash, and keeping a row's index entries in
 * step with its fields. A change always reads the row, calls `unindex` on the OLD fields, edits
 * them, then `index` and `save`, so no index can keep a stale entry.
 *
 * Every instant is an integer of epoch ms passed in ARGV (the driver's clock, never the server's).
 * Numbers are written back with `fmt` ('%.0f'), exact for every integer below 2^53.
 */
export const LUA_COMMON = String.raw`
local LIVE = { ready = true, delayed = true, running = true, suspended = true }
local REQUEUEABLE = { failed = true, dead = true, cancelled = true }
local STATES = { 'ready', 'delayed', 'running', 'suspended', 'completed', 'failed', 'dead', 'cancelled' }

local function n(value) return tonumber(value) end
-- The (queue, name) part of the per-name index keys: the queue's length first keeps it unique.
local function qn(q, name) return #q .. ':' .. q .. ':' .. name end
local function fmt(value) return string.format('%.0f', value) end

-- Lua's unpack refuses more than a few thousand values, so a long list goes in slices; answers
-- the replies of the slices joined (for HMGET), in order.
local function callSliced(command, key, items)
  local out = {}
  for first = 1, #items, 1000 do
    local reply = redis.call(command, key, unpack(items, first, math.min(first + 999, #items)))
    if type(reply) == 'table' then
      for _, value in ipairs(reply) do out[#out + 1] = value end
    end
  end
  return out
end

local function loadJob(id)
  local raw = redis.call('HGETALL', k_job(id))
  if #raw == 0 then return nil end
  local d = {}
  for i = 1, #raw, 2 do d[raw[i]] = raw[i + 1] end
  return { d = d, dirty = {} }
end

-- Sets (value a string) or clears (value nil) one field; save() writes what changed.
local function set(job, field, value)
  job.d[field] = value
  job.dirty[field] = true
end

local function save(job)
  local put, drop = {}, {}
  for field in pairs(job.dirty) do
    local value = job.d[field]
    if value == nil then
      drop[#drop + 1] = field
    else
      put[#put + 1] = field
      put[#put + 1] = value
    end
  end
  if #put > 0 then redis.call('HSET', k_job(job.d.id), unpack(put)) end
  if #drop > 0 then redis.call('HDEL', k_job(job.d.id), unpack(drop)) end
  job.dirty = {}
end

local function flat(job)
  local out = {}
  for field, value in pairs(job.d) do
    out[#out + 1] = field
    out[#out + 1] = value
  end
  return out
end

local function effective(d, now)
  if (d.state == 'delayed' or d.state == 'suspended') and n(d.runAt) <= now then return 'ready' end
  return d.state
end

-- Claim order as a fixed-width digit string: priority desc, then runAt, then seq.
local function claimMember(d)
  return string.format('%010.0f%016.0f%016.0f', 2147483647 - n(d.priority), n(d.runAt), n(d.seq)) .. d.id
end

-- List order as a fixed-width digit string: (createdAt, seq); pages walk it backwards.
local function listMember(d)
  return string.format('%016.0f%016.0f', n(d.createdAt), n(d.seq)) .. ':' .. d.id
end

-- Purge order among settled rows of one state: finishedAt (the score), then seq.
local function finishedMember(d)
  return string.format('%016.0f', n(d.seq)) .. d.id
end

local function stateScore(d)
  if d.state == 'running' then return d.visibleAt end
  if LIVE[d.state] then return d.runAt end
  return d.finishedAt
end

local function keyField(name, tenantId, key)
  local tenant = 'n'
  if tenantId then tenant = 't' .. tenantId end
  return name .. '\0' .. tenant .. '\0' .. key
end

-- Removes every index entry the row's CURRENT fields put it in.
local function unindex(d)
  local q = d.queue
  local lane = qn(q, d.name)
  local state = d.state
  redis.call('ZREM', k_state(state, q), d.id)
  redis.call('ZREM', k_listState(state), listMember(d))
  if not LIVE[state] then
    redis.call('ZREM', k_finished(state), finishedMember(d))
    return
  end
  if state == 'suspended' and d.waitFor then redis.call('SREM', k_waiters(d.waitFor), d.id) end
  if state == 'running' and d.claimedBy then redis.call('HDEL', k_claims(d.claimedBy), d.id) end
  -- A waiting row is in its timer set or (once due) its due set, never both; a running row in
  -- its lease set, or (lapsed) its due or spent set: the common case costs two ZREMs.
  if state == 'delayed' or state == 'suspended' then
    if redis.call('ZREM', k_timers(q), d.id) == 1 then
      redis.call('ZREM', k_timersName(lane), d.id)
      return
    end
  elseif state == 'running' then
    if redis.call('ZREM', k_leases(q), d.id) == 1 then
      redis.call('ZREM', k_leasesName(lane), d.id)
      return
    end
    local member = claimMember(d)
    if redis.call('ZREM', k_spent(q), member) == 1 then
      redis.call('ZREM', k_spentName(lane), member)
      return
    end
  end
  local member = claimMember(d)
  redis.call('ZREM', k_due(q), member)
  redis.call('ZREM', k_dueName(lane), member)
end

-- A row becoming claimable: into its queue's due set and its (queue, name) one.
local function addDue(d)
  local member = claimMember(d)
  redis.call('ZADD', k_due(d.queue), 0, member)
  redis.call('ZADD', k_dueName(qn(d.queue, d.name)), 0, member)
end

-- Puts the row in the indexes its fields call for, as of now.
local function index(d, now)
  local q = d.queue
  redis.call('ZADD', k_state(d.state, q), stateScore(d), d.id)
  redis.call('ZADD', k_listState(d.state), 0, listMember(d))
  if d.state == 'ready' then
    addDue(d)
  elseif d.state == 'delayed' or d.state == 'suspended' then
    if n(d.runAt) <= now then
      addDue(d)
    else
      redis.call('ZADD', k_timers(q), d.runAt, d.id)
      redis.call('ZADD', k_timersName(qn(q, d.name)), d.runAt, d.id)
    end
  elseif d.state == 'running' then
    if d.claimNote then redis.call('HSET', k_claims(d.claimedBy), d.id, d.claimNote) end
    redis.call('ZADD', k_leases(q), d.visibleAt, d.id)
    redis.call('ZADD', k_leasesName(qn(q, d.name)), d.visibleAt, d.id)
  else
    redis.call('ZADD', k_finished(d.state), d.finishedAt, finishedMember(d))
  end
  if d.state == 'suspended' and d.waitFor then redis.call('SADD', k_waiters(d.waitFor), d.id) end
end

-- A row leaving LIVE frees its idempotency key (only if it is the one holding it).
local function releaseKey(d)
  if not d.idempotencyKey then return end
  local field = keyField(d.name, d.tenantId, d.idempotencyKey)
  if redis.call('HGET', k_idem(), field) == d.id then redis.call('HDEL', k_idem(), field) end
end

-- The live holder of a key, or nil: an entry whose row is gone or settled is no holder.
local function keyHolder(field)
  local id = redis.call('HGET', k_idem(), field)
  if not id then return nil end
  local found = redis.call('HMGET', k_job(id), 'state', 'runId')
  if found[1] and LIVE[found[1]] then return id, found[2] end
  return nil
end

-- Collects the distinct queues a change made work in; wake() publishes them once.
local function noteWork(seen, queue)
  if not seen[queue] then
    seen[queue] = true
    seen[#seen + 1] = queue
  end
end

local function wake(seen)
  if #seen > 0 then redis.call('PUBLISH', k_wake(), table.concat(seen, '\0')) end
end

-- The terminal change shared by ack, nack, cancel and lease burial.
local function finish(job, state, now)
  set(job, 'state', state)
  set(job, 'finishedAt', fmt(now))
  set(job, 'claimedBy', nil)
  set(job, 'claimNote', nil)
  set(job, 'visibleAt', nil)
  set(job, 'waitFor', nil)
  releaseKey(job.d)
end

local function fenceHolds(job, worker, claim)
  return job ~= nil and job.d.state == 'running' and job.d.claimedBy == worker
    and n(job.d.claim) == n(claim)
end
`;
