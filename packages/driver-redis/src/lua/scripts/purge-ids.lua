-- purge-ids: the same removal as purge.lua among chosen ids (at most MAX_JOB_PAGE, screened by
-- core): at most `limit` of the matching rows, oldest finishedAt first, then insertion order.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        unused
-- ARGV[2] olderThan  epoch ms
-- ARGV[3] limit      most rows removed
-- ARGV[4] stateCount how many states follow
-- ARGV[5..]          the states, then the ids
--
-- Answers how many rows went.
--- @include "format"
--- @include "staging"
--- @include "rows"
--- @include "remove-row"

local olderThan = n(ARGV[2])
local limit = n(ARGV[3])
local stateCount = n(ARGV[4])
local states = {}
for i = 1, stateCount do states[ARGV[4 + i]] = true end
local matched = {}
for i = 5 + stateCount, #ARGV do
  local job = loadJob(ARGV[i])
  if job and states[job.d.state] and job.d.finishedAt and n(job.d.finishedAt) < olderThan then
    matched[#matched + 1] = job
  end
end
table.sort(matched, function(a, b)
  if n(a.d.finishedAt) ~= n(b.d.finishedAt) then return n(a.d.finishedAt) < n(b.d.finishedAt) end
  return n(a.d.seq) < n(b.d.seq)
end)
local removed = 0
for i = 1, math.min(limit, #matched) do
  removeRow(matched[i])
  removed = removed + 1
end
flush()
for i = 1, math.min(limit, #matched) do forgetEmptyQueue(matched[i].d.queue) end
return removed
