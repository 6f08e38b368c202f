-- list: one bounded stretch of a list walk over one lex index (members `createdAt seq : id`),
-- or for `all` over the merge of the eight list-by-state indexes (no index holds every row).
-- Scans at most `cap` members.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] kind       all | queue | name | tenant | state
-- ARGV[3] value      the index's queue, name, tenant or state
-- ARGV[4] direction  desc | asc
-- ARGV[5] start      the start bound (ZRANGE BYLEX)
-- ARGV[6] want       most rows answered
-- ARGV[7] cap        most members scanned
-- ARGV[8] state      filter: effective state ('' = none)
-- ARGV[9] queue      filter ('' = none)
-- ARGV[10] name      filter ('' = none)
-- ARGV[11] tenant    filter ('' = none)
--
-- Answers {rows matching (at most want), last member scanned or '', 1 when the index ran out}.
--- @include "keys"
--- @include "states"
--- @include "format"
--- @include "rows"

local now = n(ARGV[1])
local kind, value, direction, start = ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local want, cap = n(ARGV[6]), n(ARGV[7])
local state, queue, name, tenant = ARGV[8], ARGV[9], ARGV[10], ARGV[11]

local function stretch(key)
  if direction == 'desc' then
    return redis.call('ZRANGE', key, start, '-', 'BYLEX', 'REV', 'LIMIT', 0, cap)
  end
  return redis.call('ZRANGE', key, start, '+', 'BYLEX', 'LIMIT', 0, cap)
end

-- Every row is in exactly one list-by-state index, so all rows are their merge: the first cap
-- members of each, in list order by (createdAt, seq) read as numbers (not by locale), cut to cap.
local function mergedStates()
  local all = {}
  for _, stored in ipairs(STATES) do
    for _, member in ipairs(stretch(k_listState(stored))) do
      all[#all + 1] = { member, n(string.sub(member, 1, 16)), n(string.sub(member, 17, 32)) }
    end
  end
  local function earlier(a, b) return a[2] < b[2] or (a[2] == b[2] and a[3] < b[3]) end
  if direction == 'desc' then
    table.sort(all, function(a, b) return earlier(b, a) end)
  else
    table.sort(all, earlier)
  end
  local out = {}
  for i = 1, math.min(cap, #all) do out[i] = all[i][1] end
  return out
end

local members
if kind == 'all' then
  members = mergedStates()
else
  local key = k_listState(value)
  if kind == 'queue' then key = k_listQueue(value)
  elseif kind == 'name' then key = k_listName(value)
  elseif kind == 'tenant' then key = k_listTenant(value) end
  members = stretch(key)
end

local function matches(d)
  return (state == '' or effective(d, now) == state) and (queue == '' or d.queue == queue)
    and (name == '' or d.name == name) and (tenant == '' or d.tenantId == tenant)
end

local rows = {}
local last = ''
local scanned = 0
for _, member in ipairs(members) do
  last = member
  scanned = scanned + 1
  local job = loadJob(string.sub(member, 34))
  if job and matches(job.d) then
    rows[#rows + 1] = flat(job)
    if #rows >= want then break end
  end
end
local exhausted = 0
if scanned == #members and #members < cap then exhausted = 1 end
return { rows, last, exhausted }
