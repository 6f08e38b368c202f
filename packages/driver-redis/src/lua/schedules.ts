/**
 * Stored schedules (contract/schedules.ts): per schedule a hash `k_schedule(qn(tenant, name))`
 * (tenant '' for none: core refuses an empty tenantId) of its fields — the payload as JSON text,
 * never parsed here; optional fields only when set — and one member in each of its indexes:
 * `k_schedulesOrder()` and, with a tenant, `k_schedulesTenant(tenant)` (lex zsets, score 0), and
 * while unpaused `k_schedulesDue()` by nextAt. A member is the list position TypeScript encodes
 * (schedule-position.ts: its only NUL ends the name), a NUL, then the hash's part, so zset order
 * is list order and a script finds the hash without decoding the position.
 *
 * Each call is one script. A schedule is answered as HGETALL's flat `{ field, value, ... }`.
 */
const SCHEDULE_COMMON = String.raw`
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
`;

/**
 * ARGV: now, position, name, tenant, revision, paused ('1' | '0'), nextAt, then field/value pairs
 * of the write's other fields (the ones set). Lands only when the stored revision is `revision`
 * (0: none stored): replaces the hash with the write, revision + 1, createdAt kept (now on a
 * create) and updatedAt now, keeps the indexes in step, and answers the hash; else false.
 */
export const SCHEDULE_PUT_LUA = `${SCHEDULE_COMMON}
local position, name, tenant, revision = ARGV[2], ARGV[3], ARGV[4], n(ARGV[5])
local key = scheduleKey(tenant, name)
local stored = redis.call('HMGET', key, 'revision', 'createdAt')
if n(stored[1] or '0') ~= revision then return false end

local fields = { 'paused', ARGV[6], 'nextAt', ARGV[7], 'revision', fmt(revision + 1),
  'createdAt', stored[2] or NOW_TEXT, 'updatedAt', NOW_TEXT }
for i = 8, #ARGV do fields[#fields + 1] = ARGV[i] end
-- Replaced whole: an optional field the write leaves out must not outlive it.
redis.call('DEL', key)
redis.call('HSET', key, unpack(fields))

local member = scheduleMember(position, tenant, name)
if not stored[1] then
  redis.call('ZADD', k_schedulesOrder(), 0, member)
  if tenant ~= '' then redis.call('ZADD', k_schedulesTenant(tenant), 0, member) end
end
if ARGV[6] == '1' then
  redis.call('ZREM', k_schedulesDue(), member)
else
  redis.call('ZADD', k_schedulesDue(), ARGV[7], member)
end
return redis.call('HGETALL', key)
`;

/** ARGV: now (unused), name, tenant. Answers the schedule, or false. */
export const SCHEDULE_GET_LUA = `${SCHEDULE_COMMON}
local flat = redis.call('HGETALL', scheduleKey(ARGV[3], ARGV[2]))
if #flat == 0 then return false end
return flat
`;

/**
 * ARGV: now (unused), position, name, tenant, revision. Removes the schedule and its index
 * members when stored at `revision`: answers 1, else 0. An emptied tenant zset goes with its
 * last member, so nothing outlives the schedules.
 */
export const SCHEDULE_REMOVE_LUA = `${SCHEDULE_COMMON}
local position, name, tenant = ARGV[2], ARGV[3], ARGV[4]
local key = scheduleKey(tenant, name)
local stored = redis.call('HGET', key, 'revision')
if not stored or n(stored) ~= n(ARGV[5]) then return 0 end
local member = scheduleMember(position, tenant, name)
redis.call('DEL', key)
redis.call('ZREM', k_schedulesOrder(), member)
if tenant ~= '' then redis.call('ZREM', k_schedulesTenant(tenant), member) end
redis.call('ZREM', k_schedulesDue(), member)
return 1
`;

/**
 * ARGV: now (unused), tenant ('' = every tenant's), position after ('' = from the first), limit.
 * Reads the tenant's zset or every schedule's from past `after`: a member at that position is
 * its position, NUL, then the hash part (text, never byte 0xFF), so position .. NUL .. 0xFF
 * sorts after it and before every later position. Answers at most `limit` schedules.
 */
export const SCHEDULE_LIST_LUA = String.raw`${SCHEDULE_COMMON}
local tenant, after = ARGV[2], ARGV[3]
local key = k_schedulesOrder()
if tenant ~= '' then key = k_schedulesTenant(tenant) end
local from = '-'
if after ~= '' then from = '(' .. after .. '\0\255' end
return schedulesOf(redis.call('ZRANGEBYLEX', key, from, '+', 'LIMIT', 0, n(ARGV[4])))
`;

/**
 * ARGV: now (unused), upTo, limit. The unpaused schedules with nextAt <= upTo, by nextAt then
 * member (list) order, at most `limit`: reads only the due members, whatever is stored.
 */
export const SCHEDULE_DUE_LUA = `${SCHEDULE_COMMON}
local due = redis.call('ZRANGE', k_schedulesDue(), '-inf', ARGV[2], 'BYSCORE', 'LIMIT', 0, n(ARGV[3]))
return schedulesOf(due)
`;
