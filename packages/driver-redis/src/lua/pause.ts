/**
 * Pauses a queue unless it is paused, and answers the instant the pause that holds began.
 * ARGV: now, queue.
 */
export const PAUSE_LUA = `
local at = redis.call('HGET', k_paused(), ARGV[2])
if at then return at end
redis.call('HSET', k_paused(), ARGV[2], ARGV[1])
return ARGV[1]
`;

/**
 * Resumes a queue (nothing when it is not paused) and wakes its workers, as an enqueue does.
 * ARGV: now (unused), queue. Answers 1 when a pause was removed, else 0.
 */
export const RESUME_LUA = `
local removed = redis.call('HDEL', k_paused(), ARGV[2])
wake({ ARGV[2] })
return removed
`;
