/**
 * The fenced append of a job's log lines. ARGV: now, jobId, workerId, claim, from, cap, then
 * (at, level, message) per line. Answers 0 when the fence does not hold, else 1. The head hash
 * holds kept, dropped, and the claim whose holder has offered `next` lines; each kept line is one
 * list entry `attempt \0 at \0 level \0 message` (a message holds no NUL), its seq its position.
 * Work is the batch: an append never reads the list.
 */
export const LOGS_APPEND_LUA = `
local id, worker, claim, from, cap = ARGV[2], ARGV[3], ARGV[4], n(ARGV[5]), n(ARGV[6])
local held = redis.call('HMGET', k_job(id), 'state', 'claimedBy', 'claim', 'attempts')
if held[1] ~= 'running' or held[2] ~= worker or n(held[3]) ~= n(claim) then return 0 end
local attempt = fmt(n(held[4] or '0'))
local head = redis.call('HMGET', k_logHead(id), 'kept', 'dropped', 'claim', 'next')
local kept, dropped, next = n(head[1] or '0'), n(head[2] or '0'), n(head[4] or '0')
if head[3] == false or n(head[3]) ~= n(claim) then next = 0 end
local count = (#ARGV - 6) / 3
local skip = math.min(count, math.max(0, next - from))
local take = math.min(count - skip, math.max(0, cap - kept))
if take > 0 then
  local entries = {}
  for i = skip + 1, skip + take do
    local at = 6 + (i - 1) * 3
    entries[#entries + 1] = attempt .. '\\0' .. ARGV[at + 1] .. '\\0' .. ARGV[at + 2] .. '\\0' .. ARGV[at + 3]
  end
  redis.call('RPUSH', k_logs(id), unpack(entries))
end
redis.call('HSET', k_logHead(id), 'kept', fmt(kept + take), 'dropped', fmt(dropped + count - skip - take),
  'claim', fmt(n(claim)), 'next', fmt(math.max(next, from + count)))
return 1
`;

/**
 * A page of a job's lines. ARGV: now, jobId, tenant flag ('t' + tenant, or 'n'), after, count.
 * Answers {0} when the job is missing or another tenant's, else {1, dropped, entries...}.
 */
export const LOGS_LIST_LUA = `
local id, tenant, after, count = ARGV[2], ARGV[3], n(ARGV[4]), n(ARGV[5])
local row = redis.call('HMGET', k_job(id), 'state', 'tenantId')
if not row[1] then return { 0 } end
if tenant ~= 'n' and row[2] ~= string.sub(tenant, 2) then return { 0 } end
local dropped = redis.call('HGET', k_logHead(id), 'dropped') or '0'
local entries = redis.call('LRANGE', k_logs(id), after, after + count - 1)
local answer = { 1, dropped }
for i = 1, #entries do answer[#answer + 1] = entries[i] end
return answer
`;
