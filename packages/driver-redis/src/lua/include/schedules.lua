-- schedules: stored schedules (contract/schedules.ts): per schedule a hash
-- `k_schedule(qn(tenant, name))` (tenant '' for none: core refuses an empty tenantId) of its
-- fields (the payload as JSON text, never parsed here; optional fields only when set) and one
-- member in each of its indexes: `k_schedulesOrder()` and, with a tenant,
-- `k_schedulesTenant(tenant)` (lex zsets, score 0), and while unpaused `k_schedulesDue()` by
-- nextAt. A member is the list position TypeScript encodes (schedule-position.ts: its only NUL
-- ends the name), a NUL, then the hash's part, so zset order is list order and a script finds the
-- hash without decoding the position. A schedule is answered as HGETALL's flat fields.
--- @include "keys"
--- @include "format"

local function scheduleKey(tenant, name) return k_schedule(qn(tenant, name)) end

local function scheduleMember(position, tenant, name) return position .. '\0' .. qn(tenant, name) end

-- The flat fields of an index member's schedule: its hash part follows the member's 2nd NUL.
local function scheduleOf(member)
  local nameEnd = string.find(member, '\0', 1, true)
  local positionEnd = string.find(member, '\0', nameEnd + 1, true)
  return redis.call('HGETALL', k_schedule(string.sub(member, positionEnd + 1)))
end

local function schedulesOf(members)
  local out = {}
  for _, member in ipairs(members) do
    local flat = scheduleOf(member)
    if #flat > 0 then out[#out + 1] = flat end
  end
  return out
end
