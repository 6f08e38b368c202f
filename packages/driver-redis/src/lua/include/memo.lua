-- memo: what a script builds once and reuses: key names, small numbers as text.
--- @include "keys"
--- @include "format"

-- Key names and small numbers as text, built once per script: a batch of 1,000 rows mostly
-- shares its queue, name, claim and attempt count, and every string built costs the collector.
-- One-argument builder with its answers kept for the rest of the script.
local function memo(build)
  local cache = {}
  return function(key)
    local found = cache[key]
    if not found then
      found = build(key)
      cache[key] = found
    end
    return found
  end
end
local queueKeys = memo(function(q) return { counts = k_counts(q), list = k_listQueue(q) } end)
local laneKeyCache = {}
local function laneKeys(q, name)
  local byName = laneKeyCache[q]
  if not byName then
    byName = {}
    laneKeyCache[q] = byName
  end
  local found = byName[name]
  if not found then
    local lane = qn(q, name)
    found = { due = k_dueName(lane), leases = k_leasesName(lane), list = k_listName(name) }
    byName[name] = found
  end
  return found
end
local intText = memo(fmt)
