import { sleep } from '../countdown.ts';
import { measure } from '../phase.ts';
import type { QueueRunner } from '../systems/types.ts';
import { enqueueInBatches } from './enqueue.ts';
import { MIXED_BATCH } from './names.ts';

/**
 * Enqueue while working: a started, idle worker; then `total` jobs enqueued in batches of 100 as
 * fast as the system takes them, in the same process, while the worker burns them down. The
 * phase ends when the last job settled.
 */
export async function mixed(runner: QueueRunner, total: number): Promise<void> {
  await runner.startWorker(() => {});
  await sleep(300);
  await measure('mixed', total, async () => {
    await Promise.all([enqueueInBatches(runner, total, MIXED_BATCH), runner.settled(total)]);
    return undefined;
  });
  await runner.stopWorker();
}
