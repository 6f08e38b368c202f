/**
 * Waiters one script wakes at most (D3): publish wakes the rest in further scripts. Filled into
 * src/lua/scripts/publish.lua and wake-more.lua by the generator (scripts/lua/fills.ts).
 */
export const WAKE_BATCH = 1_000;
