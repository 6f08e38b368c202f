import type { Fence } from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { asArray } from './decode.js';
import { SETTLE_LUA } from './lua/generated.js';
import { SETTLE_WIDTH } from './lua/settle.js';
import { defineScript, type ScriptArg } from './scripts.js';

/**
 * The settle script, which already renews fenced leases (its `extend` op) in a batch: one script
 * over the batch, one round trip, the same sha as the single settles, so the lease index and the
 * row's claim bookkeeping move exactly as `extend` moves them.
 */
const SETTLE = defineScript('settle', SETTLE_LUA);

/** Many lease renewals in ONE script call; answers per item, in input order. */
export async function extendMany(
  context: RedisContext,
  items: readonly Fence[],
  visibilityTimeoutMs: number,
): Promise<boolean[]> {
  const args: ScriptArg[] = [items.length];
  const unused = Array.from({ length: SETTLE_WIDTH - 5 }, () => '');
  for (const fence of items) {
    args.push('extend', fence.jobId, fence.workerId, fence.claim, visibilityTimeoutMs, ...unused);
  }
  // The script's last ARGV, though an extend writes no lifecycle event (include "lifecycle").
  args.push(context.lifecycleRetention);
  const reply = await context.run(SETTLE, context.clock.now(), args);
  return asArray(reply, 'extendMany').map((landed) => landed === 1);
}
