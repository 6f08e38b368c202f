/**
 * Lua every script shares: reading and writing a job hash, and keeping a row's index entries in
 * step with its fields. A change always reads the row, calls `unindex` on the OLD fields, edits
 * them, then `index` and `save`, so no index can keep a stale entry.
 *
 * Index writes are staged, not sent: `flush()` lands them as one variadic command per key with
 * the net effect per member (the last staged write of a member wins), so a batch of 1,000 rows
 * costs a handful of ZADD/ZREM calls instead of thousands. A script flushes before it reads an
 * index it may have staged writes to, and before it returns.
 *
 * Every instant is an integer of epoch ms passed in ARGV (the driver's clock, never the server's);
 * ARGV[1] is always now. runAt, createdAt and seq are stored 16 digits wide, so the index members
 * built from them are plain concatenations (rows stored unpadded are padded when read).
 */
export const LUA_COMMON = String.raw`
local LIVE = { ready = true, delayed = true, running = true, suspended = true }
local REQUEUEABLE = { failed = true, dead = true, cancelled = true }
local STATES = { 'ready', 'delayed', 'running', 'suspended', 'completed', 'failed', 'dead', 'cancelled' }
-- States whose rows per queue are only counted (k_counts), never ordered: no zset write per row.
-- Ready rows are ordered in their lane's due set already (stats finds the oldest there).
local COUNTED = { ready = true, running = true, completed = true, failed = true, dead = true,
  cancelled = true }

local function n(value) return tonumber(value) end
-- The (queue, name) part of the per-name index keys: the queue's length first keeps it unique.
local function qn(q, name) return #q .. ':' .. q .. ':' .. name end
local function fmt(value) return string.format('%.0f', value) end
-- A number 16 digits wide, so byte order is number order; a value stored so is used as it is.
local function pad(value)
  if type(value) == 'string' and #value == 16 then return value end
  return string.format('%016.0f', n(value))
end
-- Key names and small numbers as text, built once per script: a batch of 1,000 rows mostly
-- shares its queue, name, claim and attempt count, and every string built costs the collector.
-- One-argument builder with its answers kept for the rest of the script.
local function memo(build)
  local cache = {}
  return function(key)
    local found = cache[key]
    if not found then
      found = build(key)
      cache[key] = found
    end
    return found
  end
end
local queueKeys = memo(function(q) return { counts = k_counts(q), list = k_listQueue(q) } end)
local laneKeyCache = {}
local function laneKeys(q, name)
  local byName = laneKeyCache[q]
  if not byName then
    byName = {}
    laneKeyCache[q] = byName
  end
  local found = byName[name]
  if not found then
    local lane = qn(q, name)
    found = { due = k_dueName(lane), leases = k_leasesName(lane), list = k_listName(name) }
    byName[name] = found
  end
  return found
end
local intText = memo(fmt)
-- now as stored text, read once per script: updatedAt, finishedAt (plain) and runAt (padded).
local NOW_TEXT = ARGV[1]
local NOW_PADDED = pad(ARGV[1])

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

-- Staged index writes: key -> { kind, members = { member -> value, or false to remove } }.
local staged = {}
local stagedKeys = {}
local function stage(kind, key, member, value)
  local entry = staged[key]
  if not entry then
    entry = { kind = kind, members = {} }
    staged[key] = entry
    stagedKeys[#stagedKeys + 1] = key
  end
  entry.members[member] = value
end
local function zput(key, score, member) stage('z', key, member, score) end
local function zdel(key, member) stage('z', key, member, false) end
local function hput(key, field, value) stage('h', key, field, value) end
local function hdel(key, field) stage('h', key, field, false) end
local function sput(key, member) stage('s', key, member, true) end
local function sdel(key, member) stage('s', key, member, false) end
-- A counter change: deltas add up, one HINCRBY per field lands their sum.
local function bump(key, field, delta)
  local entry = staged[key]
  if not entry or entry.members[field] == nil then stage('c', key, field, 0) end
  local members = staged[key].members
  members[field] = members[field] + delta
end

local PUT = { z = 'ZADD', h = 'HSET', s = 'SADD' }
local DROP = { z = 'ZREM', h = 'HDEL', s = 'SREM' }

-- One command per slice of at most 1,000 members (width values each).
local function sendSliced(command, key, args, width)
  local step = 1000 * width
  for first = 1, #args, step do
    redis.call(command, key, unpack(args, first, math.min(first + step - 1, #args)))
  end
end

-- Lands one key's staged members: its removals, then its additions.
local function land(key, kind, members)
  local puts, drops = {}, {}
  for member, value in pairs(members) do
    if value == false then
      drops[#drops + 1] = member
    elseif kind == 'z' then
      puts[#puts + 1] = value
      puts[#puts + 1] = member
    elseif kind == 'h' then
      puts[#puts + 1] = member
      puts[#puts + 1] = value
    else
      puts[#puts + 1] = member
    end
  end
  if #drops > 0 then sendSliced(DROP[kind], key, drops, 1) end
  if #puts > 0 then sendSliced(PUT[kind], key, puts, kind == 's' and 1 or 2) end
end

-- Lands every staged write, one command per key and kind (a counter: one per changed field).
local function flush()
  for _, key in ipairs(stagedKeys) do
    local entry = staged[key]
    if entry.kind == 'c' then
      for field, delta in pairs(entry.members) do
        if delta ~= 0 then redis.call('HINCRBY', key, field, delta) end
      end
    else
      land(key, entry.kind, entry.members)
    end
  end
  staged = {}
  stagedKeys = {}
end

-- A row stores only what a fresh one does not imply: its id is its key's, attempts and claim
-- start at 0, updatedAt at createdAt. The row read back holds them all.
local function withDefaults(d, id)
  d.id = id
  d.attempts = d.attempts or '0'
  d.claim = d.claim or '0'
  d.updatedAt = d.updatedAt or d.createdAt
  return { d = d, dirty = {} }
end

local function loadJob(id)
  local raw = redis.call('HGETALL', k_job(id))
  if #raw == 0 then return nil end
  local d = {}
  for i = 1, #raw, 2 do d[raw[i]] = raw[i + 1] end
  return withDefaults(d, id)
end

-- Sets (value a string) or clears (value nil) one field; save() writes what changed. Clearing
-- a field the row does not hold writes nothing.
local function set(job, field, value)
  if value == nil and job.d[field] == nil then return end
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

-- 2147483647 - priority, 10 digits: higher priority first. Priority 0 is the common case.
local function rank(priority)
  if priority == '0' then return '2147483647' end
  return string.format('%010.0f', 2147483647 - n(priority))
end

-- Claim order as a fixed-width digit string: priority desc, then runAt, then seq.
local function claimMember(d)
  return rank(d.priority) .. pad(d.runAt) .. pad(d.seq) .. d.id
end

-- List order as a fixed-width digit string: (createdAt, seq); pages walk it backwards.
local function listMember(d)
  return pad(d.createdAt) .. pad(d.seq) .. ':' .. d.id
end

-- Purge order among settled rows of one state: finishedAt (the score), then seq.
local function finishedMember(d)
  return pad(d.seq) .. d.id
end

local function keyField(name, tenantId, key)
  local tenant = 'n'
  if tenantId then tenant = 't' .. tenantId end
  return name .. '\0' .. tenant .. '\0' .. key
end

-- Stages the removal of every index entry the row's CURRENT fields put it in. A waiting row is
-- in its waiting set or (once due) its due set, under one member: it leaves both, with no read
-- to find which. A
-- running row is in its lease set, or, once a claim found its lease lapsed (the row is marked
-- \`lapsed\`), in its due or spent set: an unlapsed one, the hot path, touches no other.
local function unindex(job)
  local d = job.d
  local q, state, id = d.queue, d.state, d.id
  if COUNTED[state] then bump(k_counts(q), state, -1) else zdel(k_state(state, q), id) end
  zdel(k_listState(state), listMember(d))
  if not LIVE[state] then
    zdel(k_finished(state), finishedMember(d))
    return
  end
  local lane = qn(q, d.name)
  if state == 'running' then
    if d.claimedBy then hdel(k_claims(d.claimedBy), id) end
    zdel(k_leasesName(lane), id)
    if not d.lapsed then return end
    set(job, 'lapsed', nil)
    local member = claimMember(d)
    zdel(k_spentName(lane), member)
    zdel(k_dueName(lane), member)
    return
  end
  local member = claimMember(d)
  zdel(k_dueName(lane), member)
  if state ~= 'ready' then
    if state == 'suspended' and d.waitFor then sdel(k_waiters(d.waitFor), id) end
    zdel(k_waitingName(lane), member)
  end
end

-- A row becoming claimable: into its lane's due set.
local function addDue(d)
  zput(k_dueName(qn(d.queue, d.name)), 0, claimMember(d))
end

-- Stages the row's entries in the indexes its fields call for, as of now.
local function index(d, now)
  local q, state, id = d.queue, d.state, d.id
  if COUNTED[state] then bump(k_counts(q), state, 1) else zput(k_state(state, q), d.runAt, id) end
  zput(k_listState(state), 0, listMember(d))
  if state == 'ready' then
    addDue(d)
  elseif state == 'delayed' or state == 'suspended' then
    if n(d.runAt) <= now then
      addDue(d)
    else
      zput(k_waitingName(qn(q, d.name)), 0, claimMember(d))
    end
    if state == 'suspended' and d.waitFor then sput(k_waiters(d.waitFor), id) end
  elseif state == 'running' then
    if d.claimNote then hput(k_claims(d.claimedBy), id, d.claimNote) end
    zput(k_leasesName(qn(q, d.name)), d.visibleAt, id)
  else
    zput(k_finished(state), d.finishedAt, finishedMember(d))
  end
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

-- A cancel of a running job, on the wake channel: a NUL, the id (a uuid), then the queue. A
-- wake message never starts with a NUL (queue names are not empty), so the two never mix.
local function tellCancelled(id, queue)
  redis.call('PUBLISH', k_wake(), '\0' .. id .. queue)
end

-- The terminal change shared by ack, nack, cancel and lease burial.
local function finish(job, state, now)
  set(job, 'state', state)
  set(job, 'finishedAt', NOW_TEXT)
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
