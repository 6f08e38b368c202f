-- backfill-get: one run, as its tenant sees it.
--
-- KEYS[1] base       `{prefix}:`, the start of every key the script names (the k_* of "keys")
-- ARGV[1] now        unused
-- ARGV[2] runId      the run
-- ARGV[3] tenant     the caller's tenant ('' = none)
--
-- Answers the run (HGETALL's flat fields), or false.
--- @include "backfills"

local flat = visibleRun(ARGV[2], ARGV[3])
return flat or false
