import type { ChildTask } from '../protocol.ts';
import type { QueueRunner, Runner } from '../systems/types.ts';
import { bulk } from './bulk.ts';
import { burn } from './burn.ts';
import { latency } from './latency.ts';
import { mixed } from './mixed.ts';
import { WORKLOAD_JOBS } from './names.ts';

const scaled = (jobs: number, scale: number): number => Math.max(1, Math.round(jobs * scale));

function queueOnly(runner: Runner, workload: string): QueueRunner {
  if (runner.kind !== 'queue') throw new Error(`a floor has no ${workload} workload`);
  return runner;
}

/** Runs one workload in the child, phase by phase. */
export async function runWorkload(task: ChildTask, runner: Runner): Promise<void> {
  const { workload, scale } = task;
  switch (workload) {
    case 'burn20k':
    case 'burn100k':
      return burn(runner, scaled(WORKLOAD_JOBS[workload], scale), false);
    case 'burn20k-analyzed':
      return burn(runner, scaled(WORKLOAD_JOBS[workload], scale), true);
    case 'bulk':
      return bulk(runner, scaled(WORKLOAD_JOBS.bulk, scale), scaled(WORKLOAD_JOBS.single, scale));
    case 'latency':
      return latency(queueOnly(runner, workload), task.latencySamples);
    case 'mixed':
      return mixed(queueOnly(runner, workload), scaled(WORKLOAD_JOBS.mixed, scale));
  }
}
