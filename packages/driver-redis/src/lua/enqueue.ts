/** Fields of one request in the enqueue script's ARGV, in this order; '' means absent. */
export const ENQUEUE_FIELDS = [
  'callerId',
  'newId',
  'runId',
  'name',
  'queue',
  'payload',
  'runAt',
  'priority',
  'maxAttempts',
  'idempotencyKey',
  'onConflict',
  'concurrencyKey',
  'tenantId',
  'traceparent',
  'enqueuedBy',
] as const;

/**
 * Inserts a batch, all or nothing. ARGV: now, mode, count, then ENQUEUE_FIELDS per request.
 * In order per request: a caller id that exists (or came earlier in the batch) answers that
 * job, or answers {'taken', index} before anything is written when a row of another tenant (or
 * of a tenant on one side only) holds the id; a key held by a live row (or an earlier item) is a conflict; else a new row.
 * Mode `one` (enqueue): a conflict answers {'conflict', holderId} and writes nothing, so the
 * caller runs the seam and the lookup. Mode `many` (enqueueMany): a conflict dedupes, or with
 * onConflict 'error' answers {'duplicate', index, holderId} before anything is written.
 * Lands: {'ok', answers}, one per request: 0 for a new row (its id and runId are the ones the
 * caller sent), else {id, runId} of the existing job; and one wake for the queues that got rows.
 */
export const ENQUEUE_LUA = `
local now = n(ARGV[1])
local mode = ARGV[2]
local count = n(ARGV[3])
local width = ${ENQUEUE_FIELDS.length}
local names = { ${ENQUEUE_FIELDS.map((field) => `'${field}'`).join(', ')} }

local function absent(value) if value == '' then return nil end return value end

local madeRun = {}
local madeTenant = {}
local batchHolder = {}
local answers = {}
local fresh = {}
for item = 1, count do
  local r = {}
  local base = 3 + (item - 1) * width
  for f = 1, width do r[names[f]] = absent(ARGV[base + f]) end
  local answer = nil
  if r.callerId then
    local runId, tenant = madeRun[r.callerId], madeTenant[r.callerId]
    if not runId then
      local held = redis.call('HMGET', k_job(r.callerId), 'runId', 'tenantId')
      runId, tenant = held[1], held[2] or ''
    end
    if runId then
      if tenant ~= (r.tenantId or '') then return { 'taken', item - 1 } end
      answer = { r.callerId, runId }
    end
  end
  local field = nil
  if not answer and r.idempotencyKey then
    field = keyField(r.name, r.tenantId, r.idempotencyKey)
    local holder, holderRun = nil, nil
    if batchHolder[field] then
      holder, holderRun = batchHolder[field][1], batchHolder[field][2]
    else
      holder, holderRun = keyHolder(field)
    end
    if holder then
      if mode == 'one' then return { 'conflict', holder } end
      if r.onConflict == 'error' then return { 'duplicate', item - 1, holder } end
      answer = { holder, holderRun }
    end
  end
  if not answer then
    r.id = r.callerId or r.newId
    r.field = field
    madeRun[r.id] = r.runId
    madeTenant[r.id] = r.tenantId or ''
    if field then batchHolder[field] = { r.id, r.runId } end
    fresh[#fresh + 1] = r
    answer = 0
  end
  answers[item] = answer
end

-- One INCRBY numbers the whole batch, in order.
local seq = 0
if #fresh > 0 then seq = redis.call('INCRBY', k_seq(), #fresh) - #fresh end
local seen = {}
for _, r in ipairs(fresh) do
  seq = seq + 1
  local runAt = now
  if r.runAt then runAt = n(r.runAt) end
  local state = 'ready'
  if runAt > now then state = 'delayed' end
  -- Stored: what withDefaults does not imply (id, attempts, claim, updatedAt are implied).
  local d = {
    runId = r.runId, name = r.name, queue = r.queue, payload = r.payload,
    state = state, priority = r.priority, maxAttempts = r.maxAttempts,
    runAt = pad(runAt), createdAt = NOW_PADDED, seq = pad(seq),
    idempotencyKey = r.idempotencyKey, concurrencyKey = r.concurrencyKey, tenantId = r.tenantId,
    traceparent = r.traceparent, enqueuedBy = r.enqueuedBy,
  }
  local put = {}
  for field, value in pairs(d) do
    put[#put + 1] = field
    put[#put + 1] = value
  end
  redis.call('HSET', k_job(r.id), unpack(put))
  withDefaults(d, r.id)
  index(d, now)
  local member = listMember(d)
  zput(k_listAll(), 0, member)
  zput(k_listQueue(d.queue), 0, member)
  zput(k_listName(d.name), 0, member)
  if d.tenantId then zput(k_listTenant(d.tenantId), 0, member) end
  if r.field then redis.call('HSET', k_idem(), r.field, d.id) end
  sput(k_queues(), d.queue)
  noteWork(seen, d.queue)
end
flush()
wake(seen)
return { 'ok', answers }
`;
