-- event-walk: one bounded stretch of unexpired events.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] index      'order': publish order, or 'time': by (publishedAt, seq), per name only
-- ARGV[3] name       '' = every event
-- ARGV[4] start      the start bound (ZRANGE BYLEX)
-- ARGV[5] cap        most members read
--
-- Answers {{event JSON, seq}...}, and the last member scanned or ''.
--- @include "keys"
--- @include "format"

local now = n(ARGV[1])
local byTime = ARGV[2] == 'time'
local key = k_eventsOrder()
if byTime then key = k_eventsName(ARGV[3]) elseif ARGV[3] ~= '' then key = k_eventsNameOrder(ARGV[3]) end
local members = redis.call('ZRANGE', key, ARGV[4], '+', 'BYLEX', 'LIMIT', 0, n(ARGV[5]))
local out = {}
for _, member in ipairs(members) do
  local id, seq
  if byTime then
    id, seq = string.sub(member, 34), string.sub(member, 17, 32)
  else
    id, seq = string.sub(member, 18), string.sub(member, 1, 16)
  end
  local found = redis.call('HMGET', k_event(id), 'json', 'expiresAt')
  if found[1] and n(found[2]) > now then out[#out + 1] = { found[1], n(seq) } end
end
return { out, members[#members] or '' }
