-- wake: telling idle workers on the wake channel, once per change.
--- @include "keys"

-- Collects the distinct queues a change made work in; wake() publishes them once.
local function noteWork(seen, queue)
  if not seen[queue] then
    seen[queue] = true
    seen[#seen + 1] = queue
  end
end

local function wake(seen)
  if #seen > 0 then redis.call('PUBLISH', k_wake(), table.concat(seen, '\0')) end
end

-- A cancel of a running job, on the wake channel: a NUL, the id (a uuid), then the queue. A
-- wake message never starts with a NUL (queue names are not empty), so the two never mix.
local function tellCancelled(id, queue)
  redis.call('PUBLISH', k_wake(), '\0' .. id .. queue)
end
