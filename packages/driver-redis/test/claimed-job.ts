import type { Driver } from '@berth/core';
import { expect } from 'vitest';

/** A job claimed by worker `w` from queue `q`, and its fence. */
export async function claimed(driver: Driver, request: { name: string; idempotencyKey?: string }) {
  const { id, runId } = await driver.enqueue({ ...request, queue: 'q' });
  const [job] = await driver.claim({ queues: ['q'], workerId: 'w', visibilityTimeoutMs: 60_000 });
  expect(job?.id).toBe(id);
  return { id, runId, fence: { jobId: id, workerId: 'w', claim: job?.claim ?? 0 } };
}
