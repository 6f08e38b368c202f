import { openQueue, type ProbeTask } from '../probe-runs.ts';
import { systemNamed } from '../systems/registry.ts';
import { enqueueInBatches } from '../workloads/enqueue.ts';
import { ENQUEUE_BATCH } from '../workloads/names.ts';
import { sizeOf } from './sizes.ts';

export interface FootprintResult {
  readonly system: string;
  readonly bytesPerJob: number;
  readonly rssPerJob: number;
}

/** One system in a process of its own: bytes it keeps per job waiting, after `jobs` enqueues. */
export async function runFootprint(task: ProbeTask): Promise<FootprintResult> {
  const { server } = systemNamed(task.system);
  const runner = await openQueue(task);
  try {
    // A first batch creates what an empty queue lacks (tables' first pages, lanes, keys).
    await enqueueInBatches(runner, ENQUEUE_BATCH, ENQUEUE_BATCH);
    const before = await sizeOf(server, task.urls, task.tag);
    const rssBefore = process.memoryUsage().rss;
    await enqueueInBatches(runner, task.jobs, ENQUEUE_BATCH, ENQUEUE_BATCH);
    const after = await sizeOf(server, task.urls, task.tag);
    return {
      system: task.system,
      bytesPerJob: (after - before) / task.jobs,
      rssPerJob: (process.memoryUsage().rss - rssBefore) / task.jobs,
    };
  } finally {
    await runner.close();
  }
}
