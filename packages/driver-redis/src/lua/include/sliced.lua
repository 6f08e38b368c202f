-- sliced: one command over a list longer than Lua's unpack takes.

-- Lua's unpack refuses more than a few thousand values, so a long list goes in slices; answers
-- the replies of the slices joined (for HMGET), in order.
local function callSliced(command, key, items)
  local out = {}
  for first = 1, #items, 1000 do
    local reply = redis.call(command, key, unpack(items, first, math.min(first + 999, #items)))
    if type(reply) == 'table' then
      for _, value in ipairs(reply) do out[#out + 1] = value end
    end
  end
  return out
end
