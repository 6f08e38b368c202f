-- stats: per queue holding any row, its counts by EFFECTIVE state and the oldest ready runAt.
-- Every count is a counter, ZCARD or ZCOUNT; the oldest is the first member of the delayed and
-- suspended sets and of each priority in each lane's due set.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
--
-- Answers {queue, counts of the eight states, runAt of the oldest effectively ready row or ''}
-- per queue.
--- @include "keys"
--- @include "states"
--- @include "format"

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
