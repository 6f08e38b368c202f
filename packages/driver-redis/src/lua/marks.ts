/**
 * Raises a named mark when it is unset or lower. ARGV: now (unused), name, value.
 * Answers 1 when the mark moved, else 0. Values are safe integers, exact as Lua numbers; the
 * given text is stored as it came.
 */
export const ADVANCE_MARK_LUA = `
local current = redis.call('HGET', k_marks(), ARGV[2])
if current and n(current) >= n(ARGV[3]) then return 0 end
redis.call('HSET', k_marks(), ARGV[2], ARGV[3])
return 1
`;
