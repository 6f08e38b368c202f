import { REMOVE_ROW_LUA } from './purge.js';

/**
 * delete, in ONE script: the row (another tenant's reads as missing) unless it is running, with
 * its index, list and waiter entries, its steps and its hold on its idempotency key; a queue
 * left empty leaves the queue set as after a purge. ARGV: now, id, tenantId ('' = any).
 * {'missing'} | {'state', 'running'} | {'ok', job as it stood}.
 */
export const DELETE_LUA = `${REMOVE_ROW_LUA}
local id = ARGV[2]
local tenant = ARGV[3]
local job = loadJob(id)
if not job or (tenant ~= '' and job.d.tenantId ~= tenant) then return { 'missing' } end
if job.d.state == 'running' then return { 'state', 'running' } end
local answer = flat(job)
releaseKey(job.d)
removeRow(job)
flush()
forgetEmptyQueue(job.d.queue)
return { 'ok', answer }
`;
