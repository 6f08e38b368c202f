-- finish: a row's run ending in a terminal state.
--- @include "now"
--- @include "rows"
--- @include "idempotency"

-- The terminal change shared by ack, nack, cancel and lease burial.
local function finish(job, state, now)
  set(job, 'state', state)
  set(job, 'finishedAt', NOW_TEXT)
  set(job, 'claimedBy', nil)
  set(job, 'claimNote', nil)
  set(job, 'visibleAt', nil)
  set(job, 'waitFor', nil)
  releaseKey(job.d)
end
