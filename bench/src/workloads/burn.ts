import { measure } from '../phase.ts';
import type { Runner } from '../systems/types.ts';
import { enqueueInBatches } from './enqueue.ts';
import { ENQUEUE_BATCH } from './names.ts';

/**
 * Burn-down: `total` no-op jobs enqueued in batches of 1,000 (phase `enqueue`), optionally the
 * tables ANALYZEd (not timed), then one worker burns the backlog down (phase `process`: from
 * starting the worker until the last job's settle has landed).
 */
export async function burn(runner: Runner, total: number, analyzed: boolean): Promise<void> {
  if (runner.kind === 'floor') {
    await measure('enqueue', total, () => runner.enqueueAll(total));
    if (analyzed) await analyze(runner.analyze);
    await measure('process', total, () => runner.processAll(total));
    return;
  }
  await measure('enqueue', total, () => enqueueInBatches(runner, total, ENQUEUE_BATCH));
  if (analyzed) await analyze(runner.analyze);
  await measure('process', total, async () => {
    await runner.startWorker(() => {});
    await runner.settled(total);
    return undefined;
  });
  await runner.stopWorker();
}

async function analyze(run: (() => Promise<void>) | undefined): Promise<void> {
  if (run === undefined) throw new Error('this system has no tables to ANALYZE');
  await run();
}
