/**
 * A fenced progress write. ARGV: now, jobId, workerId, claim, value JSON. Answers 1 when the row
 * is running under this worker and claim (a lapsed lease nobody re-claimed too), else 0. Only the
 * `progress` and `updatedAt` fields change: no index orders by them, so none is touched.
 */
export const PROGRESS_LUA = `
local now, id, worker, claim, value = n(ARGV[1]), ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local held = redis.call('HMGET', k_job(id), 'state', 'claimedBy', 'claim')
if held[1] ~= 'running' or held[2] ~= worker or n(held[3]) ~= n(claim) then return 0 end
redis.call('HSET', k_job(id), 'progress', value, 'updatedAt', fmt(now))
return 1
`;
