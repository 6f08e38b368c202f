import { randomBytes } from 'node:crypto';
import type { ChildTask, ServerUrls } from '../protocol.ts';
import { systemNamed } from '../systems/registry.ts';
import { enqueueInBatches } from '../workloads/enqueue.ts';
import { ENQUEUE_BATCH } from '../workloads/names.ts';
import { sizeOf } from './sizes.ts';

/** One system in a process of its own: bytes it keeps per job waiting, after `jobs` enqueues. */
export interface FootprintTask {
  readonly system: string;
  readonly tag: string;
  readonly jobs: number;
  readonly urls: ServerUrls;
}

export interface FootprintResult {
  readonly system: string;
  readonly bytesPerJob: number;
  readonly rssPerJob: number;
}

export async function runFootprint(task: FootprintTask): Promise<FootprintResult> {
  const system = systemNamed(task.system);
  const childTask: ChildTask = {
    system: task.system,
    workload: 'bulk',
    tag: task.tag,
    scale: 1,
    latencySamples: 0,
    driverLoops: 1,
    berthConcurrency: 1_000,
    urls: task.urls,
  };
  const runner = await system.open(childTask);
  if (runner.kind !== 'queue') throw new Error(`${task.system} is a floor: it keeps no jobs`);
  try {
    // A first batch creates what an empty queue lacks (tables' first pages, lanes, keys).
    await enqueueInBatches(runner, ENQUEUE_BATCH, ENQUEUE_BATCH);
    const before = await sizeOf(system.server, task.urls, task.tag);
    const rssBefore = process.memoryUsage().rss;
    await enqueueInBatches(runner, task.jobs, ENQUEUE_BATCH, ENQUEUE_BATCH);
    const after = await sizeOf(system.server, task.urls, task.tag);
    return {
      system: task.system,
      bytesPerJob: (after - before) / task.jobs,
      rssPerJob: (process.memoryUsage().rss - rssBefore) / task.jobs,
    };
  } finally {
    await runner.close();
  }
}

export const newTag = (): string => randomBytes(4).toString('hex');
