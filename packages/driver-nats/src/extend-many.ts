import type { Fence } from '@berth/core/driver';
import type { NatsContext } from './context.js';
import { fenced } from './settle.js';
import { extended } from './transitions.js';

/**
 * Many lease renewals: NATS KV's atomic unit is one key, so each distinct fence is `extend`'s
 * own conditional write, all in flight at once, with one `now` for the batch. A fence given
 * twice is written once and answered for both (two writes would only race each other).
 */
export async function extendMany(
  context: NatsContext,
  items: readonly Fence[],
  visibilityTimeoutMs: number,
): Promise<boolean[]> {
  await context.mirror.syncOwn();
  const now = context.clock.now();
  const keyOf = (fence: Fence) => `${fence.jobId}\u0000${fence.workerId}\u0000${fence.claim}`;
  const distinct = new Map<string, Fence>();
  for (const fence of items) if (!distinct.has(keyOf(fence))) distinct.set(keyOf(fence), fence);
  const written = await Promise.all(
    [...distinct.values()].map((fence) =>
      fenced(context, fence, (job) => extended(job, visibilityTimeoutMs, now), now),
    ),
  );
  const landed = new Map([...distinct.keys()].map((key, at) => [key, written[at] !== undefined]));
  return items.map((fence) => landed.get(keyOf(fence)) === true);
}
