-- indexes: keeping a row's index entries in step with its fields (staged: see "staging").
--- @include "keys"
--- @include "states"
--- @include "format"
--- @include "staging"
--- @include "rows"
--- @include "members"

-- Stages the removal of every index entry the row's CURRENT fields put it in. A waiting row is
-- in its waiting set or (once due) its due set, under one member: it leaves both, with no read
-- to find which. A running row is in its lease set, or, once a claim found its lease lapsed (the
-- row is marked `lapsed`), in its due or spent set: an unlapsed one, the hot path, touches no
-- other.
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
