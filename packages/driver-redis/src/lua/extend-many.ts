/**
 * Renews many leases, each fenced on its own, in ONE script; answers 1/0 per item, in order.
 * ARGV: now, visibilityTimeoutMs, then per item: jobId, workerId, claim. A fence holds while the
 * row is running under this worker and claim (a lapsed lease nobody re-claimed still holds); a
 * fence given twice renews to the same instant twice. The lease index is moved with the row.
 */
export const EXTEND_MANY_LUA = `
local now = n(ARGV[1])
local visibleAt = fmt(now + n(ARGV[2]))
local landed = {}
for item = 1, (#ARGV - 2) / 3 do
  local at = 2 + (item - 1) * 3
  local job = loadJob(ARGV[at + 1])
  if fenceHolds(job, ARGV[at + 2], ARGV[at + 3]) then
    unindex(job.d)
    set(job, 'updatedAt', fmt(now))
    set(job, 'visibleAt', visibleAt)
    index(job.d, now)
    save(job)
    landed[item] = 1
  else
    landed[item] = 0
  end
end
return landed
`;
