// The Redis floor: a hash per job, a sorted set of ready ids and one of running ids. Job keys are
// built in the script from a prefix argument: fine for a floor on one server, never for Berth.

/** KEYS: seq, ready. ARGV: job key prefix, then one payload per job. */
export const ENQUEUE = `
local n = #ARGV - 1
local last = redis.call('INCRBY', KEYS[1], n)
for i = 1, n do
  local id = last - n + i
  redis.call('HSET', ARGV[1] .. id, 'payload', ARGV[i + 1], 'state', 'ready')
  redis.call('ZADD', KEYS[2], id, id)
end
return n`;

/** KEYS: ready, running. ARGV: job key prefix, limit, lease deadline. Answers id, payload, ... */
export const CLAIM = `
local popped = redis.call('ZPOPMIN', KEYS[1], ARGV[2])
local out = {}
for i = 1, #popped, 2 do
  local id = popped[i]
  local key = ARGV[1] .. id
  redis.call('HSET', key, 'state', 'running')
  redis.call('ZADD', KEYS[2], ARGV[3], id)
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', key, 'payload')
end
return out`;

/** KEYS: running. ARGV: job key prefix, then ids. Completes those still running; answers how many. */
export const COMPLETE = `
local done = 0
for i = 2, #ARGV do
  if redis.call('ZREM', KEYS[1], ARGV[i]) == 1 then
    redis.call('HSET', ARGV[1] .. ARGV[i], 'state', 'completed')
    done = done + 1
  end
end
return done`;
