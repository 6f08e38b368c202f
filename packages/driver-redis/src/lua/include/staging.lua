-- staging: index writes are staged, not sent: flush() lands them as one variadic command per key
-- with the net effect per member (the last staged write of a member wins), so a batch of 1,000
-- rows costs a handful of ZADD/ZREM calls instead of thousands. A script flushes before it reads
-- an index it may have staged writes to, and before it returns.

-- Staged index writes: key -> { kind, members = { member -> value, or false to remove } }.
local staged = {}
local stagedKeys = {}
local function stage(kind, key, member, value)
  local entry = staged[key]
  if not entry then
    entry = { kind = kind, members = {} }
    staged[key] = entry
    stagedKeys[#stagedKeys + 1] = key
  end
  entry.members[member] = value
end
local function zput(key, score, member) stage('z', key, member, score) end
local function zdel(key, member) stage('z', key, member, false) end
local function hput(key, field, value) stage('h', key, field, value) end
local function hdel(key, field) stage('h', key, field, false) end
local function sput(key, member) stage('s', key, member, true) end
local function sdel(key, member) stage('s', key, member, false) end
-- A counter change: deltas add up, one HINCRBY per field lands their sum.
local function bump(key, field, delta)
  local entry = staged[key]
  if not entry or entry.members[field] == nil then stage('c', key, field, 0) end
  local members = staged[key].members
  members[field] = members[field] + delta
end

local PUT = { z = 'ZADD', h = 'HSET', s = 'SADD' }
local DROP = { z = 'ZREM', h = 'HDEL', s = 'SREM' }

-- One command per slice of at most 1,000 members (width values each).
local function sendSliced(command, key, args, width)
  local step = 1000 * width
  for first = 1, #args, step do
    redis.call(command, key, unpack(args, first, math.min(first + step - 1, #args)))
  end
end

-- Lands one key's staged members: its removals, then its additions.
local function land(key, kind, members)
  local puts, drops = {}, {}
  for member, value in pairs(members) do
    if value == false then
      drops[#drops + 1] = member
    elseif kind == 'z' then
      puts[#puts + 1] = value
      puts[#puts + 1] = member
    elseif kind == 'h' then
      puts[#puts + 1] = member
      puts[#puts + 1] = value
    else
      puts[#puts + 1] = member
    end
  end
  if #drops > 0 then sendSliced(DROP[kind], key, drops, 1) end
  if #puts > 0 then sendSliced(PUT[kind], key, puts, kind == 's' and 1 or 2) end
end

-- Lands every staged write, one command per key and kind (a counter: one per changed field).
local function flush()
  for _, key in ipairs(stagedKeys) do
    local entry = staged[key]
    if entry.kind == 'c' then
      for field, delta in pairs(entry.members) do
        if delta ~= 0 then redis.call('HINCRBY', key, field, delta) end
      end
    else
      land(key, entry.kind, entry.members)
    end
  end
  staged = {}
  stagedKeys = {}
end
