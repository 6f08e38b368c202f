/**
 * How many of a name's newest events published at or after `eventsSince` a suspend with an
 * events filter (eventsMatch, eventsExclude) looks at for a live one that passes it. Newest
 * first: the events a waiter's look could not have seen are the newest.
 */
export const EVENTS_SINCE_SCAN = 64;

/**
 * ARGV slots per settle item: op, jobId, workerId, claim, then four op arguments. Both are
 * filled into src/lua/scripts/settle.lua by the generator (scripts/lua/fills.ts).
 */
export const SETTLE_WIDTH = 8;
