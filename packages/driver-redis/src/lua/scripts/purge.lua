-- purge: removes at most `limit` settled rows of the given states with finishedAt < olderThan,
-- oldest finishedAt first (then insertion order), with their list entries and steps; the caller
-- calls again for more. Reads at most `limit` entries per state.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        unused
-- ARGV[2] olderThan  epoch ms
-- ARGV[3] limit      most rows removed
-- ARGV[4] stateCount how many states follow
-- ARGV[5..]          the states
--
-- Answers how many rows went.
--- @include "keys"
--- @include "format"
--- @include "staging"
--- @include "rows"
--- @include "remove-row"

local limit = n(ARGV[3])
local picked = {}
for i = 1, n(ARGV[4]) do
  local key = k_finished(ARGV[4 + i])
  local page = redis.call('ZRANGE', key, '-inf', '(' .. ARGV[2], 'BYSCORE', 'LIMIT', 0, limit, 'WITHSCORES')
  for j = 1, #page, 2 do picked[#picked + 1] = { n(page[j + 1]), page[j], key } end
end
table.sort(picked, function(a, b)
  if a[1] ~= b[1] then return a[1] < b[1] end
  return a[2] < b[2]
end)
local removed = 0
local queues = {}
for i = 1, math.min(limit, #picked) do
  local job = loadJob(string.sub(picked[i][2], 17))
  if job then
    removeRow(job)
    queues[job.d.queue] = true
    removed = removed + 1
  else
    redis.call('ZREM', picked[i][3], picked[i][2])
  end
end
flush()
for q in pairs(queues) do forgetEmptyQueue(q) end
return removed
