import type { QueueRunner } from '../systems/types.ts';

/** Enqueues jobs `first .. first + total - 1` in sequential bulk calls of `batch`. */
export async function enqueueInBatches(
  runner: QueueRunner,
  total: number,
  batch: number,
  first = 0,
): Promise<undefined> {
  for (let sent = 0; sent < total; sent += batch) {
    await runner.enqueueBatch(first + sent, Math.min(batch, total - sent));
  }
  return undefined;
}
