import type { Fence, Json } from '@berth/core/driver';
import type { NatsContext } from './context.js';
import type { StoredJob } from './record.js';
import { fenced } from './settle.js';

/**
 * The record with its progress replaced. Inline, never spilled: a value is at most
 * MAX_PROGRESS_BYTES, no more than SPILL_AT, so the record stays within a message.
 */
const progressed = (job: StoredJob, value: Json, now: number): StoredJob => ({
  ...job,
  progress: value,
  updatedAt: now,
});

/** The fenced progress write: ONE conditional write of the job's record, writing `progress`. */
export async function progress(context: NatsContext, fence: Fence, value: Json): Promise<boolean> {
  await context.mirror.syncOwn();
  const now = context.clock.now();
  const job = await fenced(
    context,
    fence,
    (current) => progressed(current, value, now),
    now,
    (written) => [['progress', written.attempts]],
  );
  return job !== undefined;
}
