-- members: a row's members in the claim, list and finished indexes, fixed-width digit strings so
-- byte order is the index's order.
--- @include "format"

-- 2147483647 - priority, 10 digits: higher priority first. Priority 0 is the common case.
local function rank(priority)
  if priority == '0' then return '2147483647' end
  return string.format('%010.0f', 2147483647 - n(priority))
end

-- Claim order as a fixed-width digit string: priority desc, then runAt, then seq.
local function claimMember(d)
  return rank(d.priority) .. pad(d.runAt) .. pad(d.seq) .. d.id
end

-- List order as a fixed-width digit string: (createdAt, seq); pages walk it backwards.
local function listMember(d)
  return pad(d.createdAt) .. pad(d.seq) .. ':' .. d.id
end

-- Purge order among settled rows of one state: finishedAt (the score), then seq.
local function finishedMember(d)
  return pad(d.seq) .. d.id
end
