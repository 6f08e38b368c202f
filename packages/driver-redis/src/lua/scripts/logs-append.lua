-- logs-append: the fenced append of a job's log lines. The head hash holds kept, dropped, and
-- the claim whose holder has offered `next` lines; each kept line is one list entry
-- `attempt \0 at \0 level \0 message` (a message holds no NUL), its seq its position. Work is the
-- batch: an append never reads the list.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        unused
-- ARGV[2] jobId      the job
-- ARGV[3] workerId   the fence: its holder
-- ARGV[4] claim      the fence: its claim
-- ARGV[5] from       the seq of the first line sent
-- ARGV[6] cap        most lines a job keeps
-- ARGV[7..]          at, level, message of each line
--
-- Answers 0 when the fence does not hold, else 1.
--- @include "keys"
--- @include "format"

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
    entries[#entries + 1] = attempt .. '\0' .. ARGV[at + 1] .. '\0' .. ARGV[at + 2] .. '\0' .. ARGV[at + 3]
  end
  redis.call('RPUSH', k_logs(id), unpack(entries))
end
redis.call('HSET', k_logHead(id), 'kept', fmt(kept + take), 'dropped', fmt(dropped + count - skip - take),
  'claim', fmt(n(claim)), 'next', fmt(math.max(next, from + count)))
return 1
