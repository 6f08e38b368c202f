-- now: the instant a script runs at, ARGV[1] (the driver's clock, never the server's).
--- @include "format"

-- now as stored text, read once per script: updatedAt, finishedAt (plain) and runAt (padded).
local NOW_TEXT = ARGV[1]
local NOW_PADDED = pad(ARGV[1])
