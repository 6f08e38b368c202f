import { type ByIdOptions, type JobRecord, jobNotDeletable, jobNotFound } from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { asArray, jobOf } from './decode.js';
import { DELETE_LUA } from './lua/generated.js';
import { defineScript } from './scripts.js';

const DELETE = defineScript('delete', DELETE_LUA);

/** delete: one script (lua/scripts/delete.lua); the answer is the row as it stood, as of now. */
export async function deleteJob(
  context: RedisContext,
  id: string,
  options: ByIdOptions,
): Promise<JobRecord> {
  const now = context.clock.now();
  const [kind, value] = asArray(
    await context.run(DELETE, now, [id, options.tenantId ?? '']),
    'delete',
  );
  if (kind === 'missing') throw jobNotFound(id);
  if (kind === 'state') throw jobNotDeletable(id, 'running');
  return jobOf(value, now);
}
