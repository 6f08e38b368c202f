-- rows: reading and writing a job hash. A change always reads the row, calls unindex on the OLD
-- fields, edits them with set, then index and save, so no index keeps a stale entry.
--- @include "keys"
--- @include "format"

-- A row stores only what a fresh one does not imply: its id is its key's, attempts and claim
-- start at 0, updatedAt at createdAt. The row read back holds them all.
local function withDefaults(d, id)
  d.id = id
  d.attempts = d.attempts or '0'
  d.claim = d.claim or '0'
  d.updatedAt = d.updatedAt or d.createdAt
  return { d = d, dirty = {} }
end

local function loadJob(id)
  local raw = redis.call('HGETALL', k_job(id))
  if #raw == 0 then return nil end
  local d = {}
  for i = 1, #raw, 2 do d[raw[i]] = raw[i + 1] end
  return withDefaults(d, id)
end

-- Sets (value a string) or clears (value nil) one field; save() writes what changed. Clearing
-- a field the row does not hold writes nothing.
local function set(job, field, value)
  if value == nil and job.d[field] == nil then return end
  job.d[field] = value
  job.dirty[field] = true
end

local function save(job)
  local put, drop = {}, {}
  for field in pairs(job.dirty) do
    local value = job.d[field]
    if value == nil then
      drop[#drop + 1] = field
    else
      put[#put + 1] = field
      put[#put + 1] = value
    end
  end
  if #put > 0 then redis.call('HSET', k_job(job.d.id), unpack(put)) end
  if #drop > 0 then redis.call('HDEL', k_job(job.d.id), unpack(drop)) end
  job.dirty = {}
end

local function flat(job)
  local out = {}
  for field, value in pairs(job.d) do
    out[#out + 1] = field
    out[#out + 1] = value
  end
  return out
end

local function effective(d, now)
  if (d.state == 'delayed' or d.state == 'suspended') and n(d.runAt) <= now then return 'ready' end
  return d.state
end
