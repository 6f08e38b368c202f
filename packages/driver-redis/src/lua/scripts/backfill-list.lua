-- backfill-list: walks the narrowest index (holder, name, tenant, or every run) newest first, in
-- slices, keeping the runs of the status, until `limit` are found: at most the index, which
-- retention bounds.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        unused
-- ARGV[2] name       '' = any
-- ARGV[3] tenant     '' = any
-- ARGV[4] status     '' = any
-- ARGV[5] limit      most runs answered
--
-- Answers the runs, newest start first.
--- @include "keys"
--- @include "format"
--- @include "backfills"

local name, tenant, status, limit = ARGV[2], ARGV[3], ARGV[4], n(ARGV[5])
local key
if name ~= '' and tenant ~= '' then key = k_backfillsHolder(qn(tenant, name))
elseif name ~= '' then key = k_backfillsName(name)
elseif tenant ~= '' then key = k_backfillsTenant(tenant)
else key = k_backfillsOrder() end

local SLICE = 100
local out = {}
local first = 0
while #out < limit do
  local ids = redis.call('ZRANGE', key, first, first + SLICE - 1, 'REV')
  for _, id in ipairs(ids) do
    local flat, d = visibleRun(id, '')
    if flat and (status == '' or d.status == status) then
      out[#out + 1] = flat
      if #out == limit then break end
    end
  end
  if #ids < SLICE then break end
  first = first + SLICE
end
return out
