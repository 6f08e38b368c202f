-- attempts: the attempt history (core's contract/attempts.ts): a list per job, `attempts:<id>`,
-- of record JSON, oldest first. `recordAttempt(d, outcome, errorJson)` appends the record of the
-- attempt row `d` (as its claim left it: claimedBy, claim, attempts, claimedAt, attemptSeq) ends
-- with `outcome`, and the error JSON the change stores (nil when none); a `failed` give-up whose
-- code is LEASE_LAPSED is recorded `lapsed`. It answers the record's seq, which the caller stores
-- in the row's `attemptSeq` field in the write it makes anyway: the hot ack costs one RPUSH more,
-- no read. Past the cap the record after the first goes (LSET to a marker no record equals, then
-- LREM of it): the first and the latest MAX_ATTEMPT_RECORDS - 1 stay. Each script that ends an
-- attempt calls it in its own change, after the fence check. Numbers are stored as text (cjson
-- would round a 13-digit instant to its default precision) and read back as numbers.
-- {{MAX_ATTEMPT_MESSAGE_BYTES}}, {{MAX_ATTEMPT_STACK_BYTES}}, {{MAX_ATTEMPT_RECORDS}}: core's limits.
--- @include "keys"
--- @include "format"
--- @include "now"

local function cutUtf8(text, bytes)
  if text == nil or #text <= bytes then return text end
  local stop = bytes
  -- Back off over continuation bytes (10xxxxxx) to the start of the cut character.
  while stop > 0 do
    local b = string.byte(text, stop + 1)
    if b < 128 or b >= 192 then break end
    stop = stop - 1
  end
  return string.sub(text, 1, stop)
end
local function recordAttempt(d, outcome, errorJson)
  local key = k_attempts(d.id)
  local seq = fmt(n(d.attemptSeq or '0') + 1)
  local record = { seq = seq, attempt = d.attempts, claim = d.claim,
    workerId = d.claimedBy or '', claimedAt = d.claimedAt or d.updatedAt, endedAt = NOW_TEXT,
    outcome = outcome }
  if errorJson and errorJson ~= '' then
    local e = cjson.decode(errorJson)
    local cut = { message = cutUtf8(e.message or '', {{MAX_ATTEMPT_MESSAGE_BYTES}}) }
    if type(e.code) == 'string' then cut.code = e.code end
    if type(e.stack) == 'string' then cut.stack = cutUtf8(e.stack, {{MAX_ATTEMPT_STACK_BYTES}}) end
    if outcome == 'failed' and cut.code == 'LEASE_LAPSED' then record.outcome = 'lapsed' end
    record.error = cut
  end
  if redis.call('RPUSH', key, cjson.encode(record)) > {{MAX_ATTEMPT_RECORDS}} then
    redis.call('LSET', key, 1, '')
    redis.call('LREM', key, 1, '')
  end
  return seq
end
