-- settled: the settle notice watchSettles hears, once per change: the NUL-joined ids of the rows
-- it moved to a terminal state, on a channel of its own (k_settled), so it wakes no idle worker.
--- @include "keys"

local function tellSettled(ids)
  if #ids > 0 then redis.call('PUBLISH', k_settled(), table.concat(ids, '\0')) end
end
