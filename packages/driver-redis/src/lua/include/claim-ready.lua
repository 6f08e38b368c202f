-- claim-ready: the hot claim, run for each `ready` row a claim takes: a ready row always leaves
-- and enters the same indexes, so they are written directly instead of through unindex, index
-- and save, and the row is written with one HSET of the fields a claim sets. Takes the same
-- entries out and puts the same ones in as those would (a ready row is counted, in its
-- list-by-state index and in its lane's due set; a running one is counted, listed, noted in its
-- worker's claims hash and in its lane's lease set). `d` is the loaded row, `member` its entry in
-- the due set it was read from; answers the row, now running.
--- @include "keys"
--- @include "format"
--- @include "memo"
--- @include "now"
--- @include "staging"
--- @include "members"

local LIST_READY = k_listState('ready')
local LIST_RUNNING = k_listState('running')
local function claimReady(d, member, worker, ownClaims, note, visibleAt)
  local q, id = d.queue, d.id
  local lane = laneKeys(q, d.name)
  local listed = listMember(d)
  local counts = queueKeys(q).counts
  bump(counts, 'ready', -1)
  zdel(LIST_READY, listed)
  zdel(lane.due, member)
  bump(counts, 'running', 1)
  zput(LIST_RUNNING, 0, listed)
  hput(ownClaims, id, note)
  zput(lane.leases, visibleAt, id)
  d.state = 'running'
  d.claim = intText(n(d.claim) + 1)
  d.attempts = intText(n(d.attempts) + 1)
  d.claimedBy = worker
  d.visibleAt = visibleAt
  d.updatedAt = NOW_TEXT
  d.claimedAt = NOW_TEXT
  local key = k_job(id)
  redis.call('HSET', key, 'state', 'running', 'claim', d.claim, 'attempts', d.attempts,
    'claimedBy', worker, 'visibleAt', visibleAt, 'updatedAt', NOW_TEXT, 'claimedAt', NOW_TEXT)
  -- A ready row rarely holds waitFor (one a requeue took off a wait); a running row never does.
  if d.waitFor then
    redis.call('HDEL', key, 'waitFor')
    d.waitFor = nil
  end
  return d
end
