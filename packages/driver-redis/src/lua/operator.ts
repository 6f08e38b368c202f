import { ATTEMPTS_LUA } from './attempts.js';

/**
 * Lua of the operator calls. Every by-id script takes ARGV: now, id, tenantId ('' = any
 * tenant); a row of another tenant answers {'missing'}, exactly like an id nobody queued.
 */
const BY_ID = `
local now = n(ARGV[1])
local id = ARGV[2]
local tenant = ARGV[3]
local job = loadJob(id)
if not job or (tenant ~= '' and job.d.tenantId ~= tenant) then return { 'missing' } end
`;

/**
 * cancel (ARGV[4] = 'cancel'): a LIVE row → cancelled; a row that was running is told on the
 * wake channel (tellCancelled). promote ('promote'): an effectively delayed row → ready now.
 * Else {'state', effective state}; landed {'ok', job}.
 */
export const OPERATOR_LUA = `${ATTEMPTS_LUA}
${BY_ID}
local op = ARGV[4]
local state = effective(job.d, now)
if op == 'cancel' then
  if not LIVE[job.d.state] then return { 'state', state } end
  local wasRunning = job.d.state == 'running'
  if wasRunning then set(job, 'attemptSeq', recordAttempt(job.d, 'cancelled', nil)) end
  unindex(job)
  finish(job, 'cancelled', now)
  set(job, 'updatedAt', NOW_TEXT)
  index(job.d, now)
  save(job)
  flush()
  if wasRunning then tellCancelled(id, job.d.queue) end
  return { 'ok', flat(job) }
end
if state ~= 'delayed' then return { 'state', state } end
unindex(job)
set(job, 'state', 'ready')
set(job, 'runAt', NOW_PADDED)
set(job, 'updatedAt', NOW_TEXT)
index(job.d, now)
save(job)
flush()
local seen = {}
noteWork(seen, job.d.queue)
wake(seen)
return { 'ok', flat(job) }
`;

/**
 * requeue's checks, in the spec's order, changing nothing. ARGV[4] = fromStep ('' = none).
 * {'missing'} | {'state', effective} | {'duplicate', holderId} | {'step', runId} | {'ok'}.
 */
export const REQUEUE_CHECK_LUA = `
${BY_ID}
local d = job.d
if not REQUEUEABLE[d.state] then return { 'state', effective(d, now) } end
if d.idempotencyKey then
  local holder = keyHolder(keyField(d.name, d.tenantId, d.idempotencyKey))
  if holder and holder ~= id then return { 'duplicate', holder } end
end
local step = ARGV[4]
if step ~= '' and redis.call('HEXISTS', k_steps(d.runId), step) == 0 then
  return { 'step', d.runId }
end
return { 'ok' }
`;

/**
 * requeue's change, conditional on the row still being requeueable ({'live'} otherwise) and on
 * no other live row having taken its key during the seam ({'duplicate', holderId}): ready now,
 * attempts 0, settle fields cleared (lastError, claim and runId kept), and with fromStep that
 * step and every step written after it dropped. ARGV[4] = fromStep ('' = none).
 */
export const REQUEUE_LUA = `
${BY_ID}
local d = job.d
if not REQUEUEABLE[d.state] then return { 'live' } end
if d.idempotencyKey then
  local holder = keyHolder(keyField(d.name, d.tenantId, d.idempotencyKey))
  if holder and holder ~= id then return { 'duplicate', holder } end
end
unindex(job)
set(job, 'state', 'ready')
set(job, 'runAt', NOW_PADDED)
set(job, 'attempts', '0')
set(job, 'updatedAt', NOW_TEXT)
for _, field in ipairs({ 'finishedAt', 'result', 'claimedBy', 'visibleAt', 'waitFor' }) do
  set(job, field, nil)
end
index(d, now)
save(job)
flush()
if d.idempotencyKey then
  -- A live row again: it holds its key (no other live row holds it).
  redis.call('HSET', k_idem(), keyField(d.name, d.tenantId, d.idempotencyKey), id)
end
local step = ARGV[4]
if step ~= '' then
  local order = redis.call('ZSCORE', k_stepOrder(d.runId), step)
  if order then
    local dropped = redis.call('ZRANGEBYSCORE', k_stepOrder(d.runId), order, '+inf')
    callSliced('HDEL', k_steps(d.runId), dropped)
    callSliced('ZREM', k_stepOrder(d.runId), dropped)
  end
end
local seen = {}
noteWork(seen, d.queue)
wake(seen)
return { 'ok', flat(job) }
`;

/**
 * Per queue holding any row: {queue, counts of the eight states by EFFECTIVE state, runAt of the
 * oldest effectively ready row or ''}. Every count is a counter, ZCARD or ZCOUNT; the oldest is
 * the first member of the delayed and suspended sets and of each priority in each lane's due set.
 */
export const STATS_LUA = `
local now = n(ARGV[1])
local out = {}
-- The oldest runAt among ready rows, which are counted, not ordered by runAt: a lane's due set
-- is ordered by (priority desc, runAt, seq), so the first member of each priority holds that
-- priority's oldest. A lapsed lease moved there (still running, so not ready) is passed over;
-- a promoted delayed or suspended row is due, so its runAt is a ready one's too.
local function oldestDue(q)
  local oldest = nil
  for _, name in ipairs(redis.call('SMEMBERS', k_names(q))) do
    local key = k_dueName(qn(q, name))
    local from = '-'
    while true do
      local first = redis.call('ZRANGE', key, from, '+', 'BYLEX', 'LIMIT', 0, 1)[1]
      if not first then break end
      local state = redis.call('HGET', k_job(string.sub(first, 43)), 'state')
      if state and state ~= 'running' then
        local runAt = n(string.sub(first, 11, 26))
        if oldest == nil or runAt < oldest then oldest = runAt end
        from = '[' .. string.format('%010.0f', n(string.sub(first, 1, 10)) + 1)
      else
        from = '(' .. first
      end
    end
  end
  return oldest
end
for _, q in ipairs(redis.call('SMEMBERS', k_queues())) do
  local counts = {}
  local total = 0
  local counted = redis.call('HMGET', k_counts(q), unpack(STATES))
  for i, state in ipairs(STATES) do
    if COUNTED[state] then
      counts[i] = n(counted[i]) or 0
    else
      counts[i] = redis.call('ZCARD', k_state(state, q))
    end
    total = total + counts[i]
  end
  local oldest = nil
  if counts[1] > 0 then oldest = oldestDue(q) end
  for i = 2, 4, 2 do
    -- delayed (2) and suspended (4) rows whose runAt came read as ready; scores are runAt
    local due = redis.call('ZCOUNT', k_state(STATES[i], q), '-inf', ARGV[1])
    counts[i] = counts[i] - due
    counts[1] = counts[1] + due
    local first = redis.call('ZRANGE', k_state(STATES[i], q), 0, 0, 'WITHSCORES')
    if first[2] and n(first[2]) <= now and (oldest == nil or n(first[2]) < oldest) then
      oldest = n(first[2])
    end
  end
  if total > 0 then
    local row = { q }
    for i = 1, 8 do row[#row + 1] = counts[i] end
    row[#row + 1] = oldest and fmt(oldest) or ''
    out[#out + 1] = row
  end
end
return out
`;
