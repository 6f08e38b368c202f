-- idempotency: the `idem` hash of idempotency keys, each held by one LIVE row.
--- @include "keys"
--- @include "states"

local function keyField(name, tenantId, key)
  local tenant = 'n'
  if tenantId then tenant = 't' .. tenantId end
  return name .. '\0' .. tenant .. '\0' .. key
end

-- A row leaving LIVE frees its idempotency key (only if it is the one holding it).
local function releaseKey(d)
  if not d.idempotencyKey then return end
  local field = keyField(d.name, d.tenantId, d.idempotencyKey)
  if redis.call('HGET', k_idem(), field) == d.id then redis.call('HDEL', k_idem(), field) end
end

-- The live holder of a key, or nil: an entry whose row is gone or settled is no holder.
local function keyHolder(field)
  local id = redis.call('HGET', k_idem(), field)
  if not id then return nil end
  local found = redis.call('HMGET', k_job(id), 'state', 'runId')
  if found[1] and LIVE[found[1]] then return id, found[2] end
  return nil
end
