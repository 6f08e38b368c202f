-- unclaim: gives back the rows of a claim whose answer never reached its caller (a timeout, a
-- dropped connection): each row its worker still holds under that claim's token goes back to
-- the state it was claimed from, with the attempt it never ran restored. Reads only the rows
-- the worker holds.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] token      the lost claim's token
-- ARGV[3] workerId   the worker that claimed
--
-- Answers how many rows went back.
--- @include "keys"
--- @include "format"
--- @include "now"
--- @include "staging"
--- @include "rows"
--- @include "indexes"
--- @include "wake"

local now = n(ARGV[1])
local raw = redis.call('HGETALL', k_claims(ARGV[3]))
local seen = {}
local restored = 0
for i = 1, #raw, 2 do
  local token, prior, counted = string.match(raw[i + 1], '^(.+):(%a+):(%d)$')
  if token == ARGV[2] then
    local job = loadJob(raw[i])
    -- The claims hash changes with every claim and settle of the row: its entry is the current claim.
    if job and job.d.state == 'running' and job.d.claimedBy == ARGV[3] then
      unindex(job)
      set(job, 'state', prior)
      set(job, 'claimedBy', nil)
      set(job, 'visibleAt', nil)
      set(job, 'claimNote', nil)
      set(job, 'updatedAt', NOW_TEXT)
      if counted == '1' then set(job, 'attempts', fmt(n(job.d.attempts) - 1)) end
      index(job.d, now)
      save(job)
      noteWork(seen, job.d.queue)
      restored = restored + 1
    else
      hdel(k_claims(ARGV[3]), raw[i])
    end
  end
end
flush()
wake(seen)
return restored
