import { measure } from '../phase.ts';
import type { Runner } from '../systems/types.ts';
import { enqueueInBatches } from './enqueue.ts';
import { ENQUEUE_BATCH } from './names.ts';

/**
 * Enqueue only, no worker: `total` jobs in sequential batches of 1,000 with the system's bulk
 * call (phase `enqueue`), then `singles` jobs one call each, one at a time (phase `single`).
 */
export async function bulk(runner: Runner, total: number, singles: number): Promise<void> {
  if (runner.kind === 'floor') {
    await measure('enqueue', total, () => runner.enqueueAll(total));
    return;
  }
  await measure('enqueue', total, () => enqueueInBatches(runner, total, ENQUEUE_BATCH));
  await measure('single', singles, async () => {
    for (let i = 0; i < singles; i++) await runner.enqueueOne(total + i);
    return undefined;
  });
}
