-- enqueue: inserts a batch, all or nothing. In order per request: a caller id that exists (or
-- came earlier in the batch) answers that job, or answers {'taken', index} before anything is
-- written when a row of another tenant (or of a tenant on one side only) holds the id; a key
-- held by a live row (or an earlier item) is a conflict; else a new row.
-- Mode `one` (enqueue): a conflict answers {'conflict', holderId} and writes nothing, so the
-- caller runs the seam and the lookup. Mode `many` (enqueueMany): a conflict dedupes, or with
-- onConflict 'error' answers {'duplicate', index, holderId} before anything is written.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] mode       'one' | 'many'
-- ARGV[3] count      how many requests follow
-- ARGV[4..]          per request, ENQUEUE_FIELDS of src/lua/enqueue.ts in order ('' = absent):
--                    {{ENQUEUE_WIDTH}} values, read at the offsets {{ENQUEUE_OFFSETS}} names
--
-- Lands: {'ok', answers}, one per request: 0 for a new row (its id and runId are the ones the
-- caller sent), else {id, runId} of the existing job; and one wake for the queues that got rows.
--- @include "keys"
--- @include "format"
--- @include "memo"
--- @include "now"
--- @include "staging"
--- @include "rows"
--- @include "members"
--- @include "indexes"
--- @include "idempotency"
--- @include "wake"

local now = n(ARGV[1])
local mode = ARGV[2]
local count = n(ARGV[3])
local width = {{ENQUEUE_WIDTH}}
-- Argument offsets within one request (ENQUEUE_FIELDS order).
{{ENQUEUE_OFFSETS}}
-- Stored as sent when not absent: the rest of a new row is computed.
local STORED = { 'runId', F_runId, 'name', F_name, 'queue', F_queue, 'payload', F_payload, 'priority', F_priority, 'maxAttempts', F_maxAttempts, 'idempotencyKey', F_idempotencyKey, 'concurrencyKey', F_concurrencyKey, 'tenantId', F_tenantId, 'traceparent', F_traceparent, 'enqueuedBy', F_enqueuedBy, 'parentId', F_parentId }

local function arg(base, f)
  local value = ARGV[base + f]
  if value == '' then return nil end
  return value
end

local madeRun = {}
local madeTenant = {}
local batchHolder = {}
local answers = {}
local fresh = {}
for item = 1, count do
  local base = 3 + (item - 1) * width
  local callerId, tenantId = arg(base, F_callerId), arg(base, F_tenantId)
  local answer = nil
  if callerId then
    local runId, tenant = madeRun[callerId], madeTenant[callerId]
    if not runId then
      local held = redis.call('HMGET', k_job(callerId), 'runId', 'tenantId')
      runId, tenant = held[1], held[2] or ''
    end
    if runId then
      if tenant ~= (tenantId or '') then return { 'taken', item - 1 } end
      answer = { callerId, runId }
    end
  end
  local field = nil
  local key = arg(base, F_idempotencyKey)
  if not answer and key then
    field = keyField(ARGV[base + F_name], tenantId, key)
    local holder, holderRun = nil, nil
    if batchHolder[field] then
      holder, holderRun = batchHolder[field][1], batchHolder[field][2]
    else
      holder, holderRun = keyHolder(field)
    end
    if holder then
      if mode == 'one' then return { 'conflict', holder } end
      if ARGV[base + F_onConflict] == 'error' then return { 'duplicate', item - 1, holder } end
      answer = { holder, holderRun }
    end
  end
  if not answer then
    local id = callerId or ARGV[base + F_newId]
    local runId = ARGV[base + F_runId]
    madeRun[id] = runId
    madeTenant[id] = tenantId or ''
    if field then batchHolder[field] = { id, runId } end
    fresh[#fresh + 1] = { base = base, id = id, field = field }
    answer = 0
  end
  answers[item] = answer
end

local LIST_READY, QUEUES = k_listState('ready'), k_queues()
-- One new row writes each key once: staging (which nets a batch's writes per key) only costs.
local single = #fresh == 1
local function addMember(key, member)
  if single then redis.call('ZADD', key, 0, member) else zput(key, 0, member) end
end
local function addToSet(key, member)
  if single then redis.call('SADD', key, member) else sput(key, member) end
end
-- A lane's first row of the batch names it in its queue's lane set.
local named = {}
local function keysOfLane(q, name)
  local keys = laneKeys(q, name)
  if not named[keys] then
    named[keys] = true
    addToSet(k_names(q), name)
  end
  return keys
end

-- One INCRBY numbers the whole batch, in order.
local seq = 0
if #fresh > 0 then seq = redis.call('INCRBY', k_seq(), #fresh) - #fresh end
local seen = {}
for _, r in ipairs(fresh) do
  seq = seq + 1
  local base, id = r.base, r.id
  local name, q = ARGV[base + F_name], ARGV[base + F_queue]
  local runAt, runAtText = now, NOW_PADDED
  local sentRunAt = arg(base, F_runAt)
  if sentRunAt then
    runAt = n(sentRunAt)
    runAtText = pad(runAt)
  end
  local state = 'ready'
  if runAt > now then state = 'delayed' end
  local seqText = pad(seq)
  -- Stored: what withDefaults does not imply (id, attempts, claim, updatedAt are implied).
  local put = { 'state', state, 'runAt', runAtText, 'createdAt', NOW_PADDED, 'seq', seqText }
  for i = 1, #STORED, 2 do
    local value = ARGV[base + STORED[i + 1]]
    if value ~= '' then
      put[#put + 1] = STORED[i]
      put[#put + 1] = value
    end
  end
  redis.call('HSET', k_job(id), unpack(put))
  local listed = NOW_PADDED .. seqText .. ':' .. id
  local queueKey, laneKey = queueKeys(q), keysOfLane(q, name)
  if state == 'ready' then
    -- What index() stages for a ready row, without building the row.
    local member = rank(ARGV[base + F_priority]) .. runAtText .. seqText .. id
    if single then redis.call('HINCRBY', queueKey.counts, 'ready', 1)
    else bump(queueKey.counts, 'ready', 1) end
    addMember(LIST_READY, listed)
    addMember(laneKey.due, member)
  else
    local d = { state = state, queue = q, name = name, priority = ARGV[base + F_priority],
      runAt = runAtText, createdAt = NOW_PADDED, seq = seqText }
    withDefaults(d, id)
    index(d, now)
  end
  addMember(queueKey.list, listed)
  addMember(laneKey.list, listed)
  local tenantId = arg(base, F_tenantId)
  if tenantId then addMember(k_listTenant(tenantId), listed) end
  if r.field then redis.call('HSET', k_idem(), r.field, id) end
  addToSet(QUEUES, q)
  noteWork(seen, q)
end
flush()
wake(seen)
return { 'ok', answers }
