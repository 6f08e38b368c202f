-- fence: whether a settle's fence (worker and claim) still holds on a loaded row.
--- @include "format"

local function fenceHolds(job, worker, claim)
  return job ~= nil and job.d.state == 'running' and job.d.claimedBy == worker
    and n(job.d.claim) == n(claim)
end
