-- lifecycle: the lifecycle event stream (k_lifecycle), one entry per event, written by the change
-- it tells of, on the branch where that change lands (src/lifecycle.ts reads it). The entry's id,
-- the server's, is the event's position; `at` is the change's now (the driver's clock). Every
-- entry holds the same fields in the same order, so a stream node stores their names once: t
-- type, j job id, n name, q queue, u tenant ('' for none), a attempt, at.
-- A script including this takes the driver's lifecycleRetention as its LAST ARGV: each XADD
-- trims to it, whole nodes only (`~`, O(1)) from {{LIFECYCLE_APPROX_FROM}} on, where a node's
-- entries are at most as many, so the stream holds under twice the retention; exactly below.
--- @include "keys"
--- @include "format"
--- @include "now"

local LIFECYCLE_KEY = k_lifecycle()
local LIFECYCLE_RETENTION = ARGV[#ARGV]
local LIFECYCLE_TRIM = n(LIFECYCLE_RETENTION) >= {{LIFECYCLE_APPROX_FROM}} and '~' or '='
local function tellLifecycle(kind, id, name, queue, tenant, attempt)
  redis.call('XADD', LIFECYCLE_KEY, 'MAXLEN', LIFECYCLE_TRIM, LIFECYCLE_RETENTION, '*',
    't', kind, 'j', id, 'n', name, 'q', queue, 'u', tenant or '', 'a', attempt, 'at', NOW_TEXT)
end
-- One event about a loaded row, with its attempts as they stand.
local function tellRow(kind, d)
  tellLifecycle(kind, d.id, d.name, d.queue, d.tenantId, d.attempts)
end
