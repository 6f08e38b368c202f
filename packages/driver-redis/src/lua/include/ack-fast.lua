-- ack-fast: the hot ack, which settle.lua runs before its general path: a running row no claim
-- saw lapse always goes to completed with the same writes, so they are made directly, reading
-- only the fields they need and building no row table. Takes the same entries out and puts the
-- same ones in as unindex, finish, index and save would. The row gets state, finishedAt,
-- updatedAt and result; its claimedBy and visibleAt stay, as no command is spent dropping them:
-- they mean something only while the row is running (decode and every script read them only
-- then), and a running row never holds waitFor or a claim note. Answers 1 (landed), 0 (the fence
-- does not hold), or nil for a row marked lapsed, which the general path takes (it also leaves
-- its due or spent set). A landed ack is told on the lifecycle stream as `completed`.
--- @include "keys"
--- @include "format"
--- @include "memo"
--- @include "now"
--- @include "staging"
--- @include "idempotency"
--- @include "attempts"
--- @include "lifecycle"

local ACK_FIELDS = { 'state', 'claimedBy', 'claim', 'queue', 'name', 'createdAt', 'seq',
  'idempotencyKey', 'tenantId', 'lapsed', 'attempts', 'claimedAt', 'updatedAt', 'attemptSeq' }
local LIST_RUNNING = k_listState('running')
local LIST_COMPLETED = k_listState('completed')
local FINISHED_COMPLETED = k_finished('completed')
local claimsOf = memo(k_claims)
local function ackFast(id, worker, claim, result)
  local key = k_job(id)
  local f = redis.call('HMGET', key, unpack(ACK_FIELDS))
  if f[1] ~= 'running' or f[2] ~= worker or n(f[3] or '0') ~= n(claim) then return 0 end
  if f[10] then return nil end
  local attemptSeq = recordAttempt({ id = id, claimedBy = worker, claim = f[3], attempts = f[11] or '0',
    claimedAt = f[12], updatedAt = f[13] or f[6], attemptSeq = f[14] }, 'completed', nil)
  local q, name, seq = f[4], f[5], pad(f[7])
  local member = pad(f[6]) .. seq .. ':' .. id
  local counts = queueKeys(q).counts
  bump(counts, 'running', -1)
  bump(counts, 'completed', 1)
  zdel(LIST_RUNNING, member)
  zput(LIST_COMPLETED, 0, member)
  hdel(claimsOf(worker), id)
  zdel(laneKeys(q, name).leases, id)
  zput(FINISHED_COMPLETED, NOW_TEXT, seq .. id)
  if result ~= '' then
    redis.call('HSET', key, 'state', 'completed', 'finishedAt', NOW_TEXT, 'updatedAt', NOW_TEXT,
      'attemptSeq', attemptSeq, 'result', result)
  else
    redis.call('HSET', key, 'state', 'completed', 'finishedAt', NOW_TEXT, 'updatedAt', NOW_TEXT,
      'attemptSeq', attemptSeq)
  end
  tellLifecycle('completed', id, name, q, f[9], f[11] or '0')
  if f[8] then releaseKey({ id = id, name = name, tenantId = f[9], idempotencyKey = f[8] }) end
  return 1
end
