/**
 * A fenced step write. ARGV: now, jobId, workerId, claim, runId, step name, step JSON.
 * {'lost'} when the fence does not hold, {'run', its runId} when the fenced job's run is another,
 * else {'ok'}: the step is written in place, and a name's first write fixes its place in the
 * run's write order.
 */
export const STEP_PUT_LUA = `
local job = loadJob(ARGV[2])
if not fenceHolds(job, ARGV[3], ARGV[4]) then return { 'lost' } end
local runId, name = ARGV[5], ARGV[6]
if job.d.runId ~= runId then return { 'run', job.d.runId } end
redis.call('HSET', k_steps(runId), name, ARGV[7])
if not redis.call('ZSCORE', k_stepOrder(runId), name) then
  redis.call('ZADD', k_stepOrder(runId), redis.call('INCR', k_stepSeq()), name)
end
return { 'ok' }
`;

/** A run's steps in write order, read in one step. ARGV: now, runId. */
export const STEP_LIST_LUA = `
local names = redis.call('ZRANGE', k_stepOrder(ARGV[2]), 0, -1)
return callSliced('HMGET', k_steps(ARGV[2]), names)
`;
