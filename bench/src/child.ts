// One system through one workload, in a process of its own so its CPU is its own.

import { ask } from './phase.ts';
import type { ChildTask } from './protocol.ts';
import { systemNamed } from './systems/registry.ts';
import { runWorkload } from './workloads/run-workload.ts';

const task = JSON.parse(process.argv[2] ?? '{}') as ChildTask;

async function main(): Promise<void> {
  const runner = await systemNamed(task.system).open(task);
  try {
    await runWorkload(task, runner);
  } finally {
    await runner.close();
  }
}

main().then(
  async () => {
    await ask({ type: 'done' });
    process.exit(0);
  },
  async (error: unknown) => {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    await ask({ type: 'failed', message });
    process.exit(1);
  },
);
