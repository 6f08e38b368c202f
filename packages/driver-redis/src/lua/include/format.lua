-- format: numbers and names as keys and index members hold them. Every instant is an integer
-- of epoch ms passed in ARGV (the driver's clock, never the server's); runAt, createdAt and seq
-- are stored 16 digits wide, so the members built from them are plain concatenations (rows
-- stored unpadded are padded when read).

local function n(value) return tonumber(value) end
-- The (queue, name) part of the per-name index keys: the queue's length first keeps it unique.
local function qn(q, name) return #q .. ':' .. q .. ':' .. name end
local function fmt(value) return string.format('%.0f', value) end
-- A number 16 digits wide, so byte order is number order; a value stored so is used as it is.
local function pad(value)
  if type(value) == 'string' and #value == 16 then return value end
  return string.format('%016.0f', n(value))
end
