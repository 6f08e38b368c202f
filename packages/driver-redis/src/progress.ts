import type { Fence, Json } from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { PROGRESS_LUA } from './lua/generated.js';
import { defineScript } from './scripts.js';

const PROGRESS = defineScript('progress', PROGRESS_LUA);

/** The fenced progress write: ONE script, one round trip. */
export async function progress(context: RedisContext, fence: Fence, value: Json): Promise<boolean> {
  const reply = await context.run(PROGRESS, context.clock.now(), [
    fence.jobId,
    fence.workerId,
    fence.claim,
    JSON.stringify(value),
    context.lifecycleRetention,
  ]);
  return reply === 1;
}
