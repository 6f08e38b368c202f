import { ENQUEUE_LUA } from './enqueue.js';

/**
 * `enqueue` with `advanceMark`, in ONE script. ARGV: as the enqueue script's in mode `many` with
 * one request, then the mark's name and value. At or above the value: {'passed'}, nothing
 * written. Below (or unset): the enqueue script runs as a function (mode `many`: a live key
 * holder dedupes in the script, or answers 'duplicate' under onConflict 'error', so there is no
 * seam) and, when it answers 'ok' (the new row, or the job the id or key holds), the mark rises.
 */
export const ENQUEUE_ADVANCING_LUA = `
local markName, markValue = ARGV[#ARGV - 1], ARGV[#ARGV]
local current = redis.call('HGET', k_marks(), markName)
if current and n(current) >= n(markValue) then return { 'passed' } end
local function enqueue()
${ENQUEUE_LUA}
end
local answer = enqueue()
if answer[1] == 'ok' then redis.call('HSET', k_marks(), markName, markValue) end
return answer
`;
