-- enqueue-advancing: `enqueue` with `advanceMark`, in ONE script. At or above the value:
-- {'passed'}, nothing written. Below (or unset): the enqueue script runs as a function (mode
-- `many`: a live key holder dedupes in the script, or answers 'duplicate' under onConflict
-- 'error', so there is no seam) and, when it answers 'ok' (the new row, or the job the id or key
-- holds), the mark rises. {{script:enqueue}} is enqueue.lua's Lua, so this includes what it uses.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        the driver's clock, epoch ms
-- ARGV[2] mode       'many'
-- ARGV[3] count      1
-- ARGV[4..]          the request's ENQUEUE_FIELDS, as enqueue.lua reads them; then the last two:
--                    the mark's name and the value it rises to
--
-- Answers {'passed'}, or what enqueue.lua answers.
--- @include "keys"
--- @include "format"
--- @include "memo"
--- @include "now"
--- @include "staging"
--- @include "rows"
--- @include "members"
--- @include "indexes"
--- @include "idempotency"
--- @include "wake"

local markName, markValue = ARGV[#ARGV - 1], ARGV[#ARGV]
local current = redis.call('HGET', k_marks(), markName)
if current and n(current) >= n(markValue) then return { 'passed' } end
local function enqueue()
{{script:enqueue}}
end
local answer = enqueue()
if answer[1] == 'ok' then redis.call('HSET', k_marks(), markName, markValue) end
return answer
