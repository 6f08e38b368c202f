import type { Fence } from '@berth/core';
import type { RedisContext } from './context.js';
import { asArray } from './decode.js';
import { EXTEND_MANY_LUA } from './lua/extend-many.js';
import { defineScript, type ScriptArg } from './scripts.js';

const EXTEND_MANY = defineScript('extendMany', EXTEND_MANY_LUA);

/** Many lease renewals in ONE script, one round trip; answers per item, in input order. */
export async function extendMany(
  context: RedisContext,
  items: readonly Fence[],
  visibilityTimeoutMs: number,
): Promise<boolean[]> {
  const args: ScriptArg[] = [visibilityTimeoutMs];
  for (const fence of items) args.push(fence.jobId, fence.workerId, fence.claim);
  const reply = await context.run(EXTEND_MANY, context.clock.now(), args);
  return asArray(reply, 'extendMany').map((landed) => landed === 1);
}
