/**
 * What the lifecycle stream's writers (src/lua/include/lifecycle.lua) share with TypeScript: the
 * generator fills it in (scripts/lua/fills.ts).
 *
 * From this retention on, each XADD trims whole stream nodes only (`MAXLEN ~`): O(1) per event,
 * and it keeps fewer than the retention plus one node's entries. A node holds at most Redis's
 * `stream-node-max-entries` (default 100) and 4 KB (`stream-node-max-bytes`, some 45 of these
 * entries), so the stream stays under twice the retention. Below it the trim is exact.
 */
export const LIFECYCLE_APPROX_FROM = 100;
