import { Redis } from 'ioredis';
import { openQueue, type ProbeTask } from '../probe-runs.ts';
import { enqueueInBatches } from '../workloads/enqueue.ts';
import { ENQUEUE_BATCH } from '../workloads/names.ts';

/** Per processed job: calls of each command, and µs the server spent in each. */
export interface CommandResult {
  readonly calls: Readonly<Record<string, number>>;
  readonly usec: Readonly<Record<string, number>>;
}

type Stats = Map<string, { calls: number; usec: number }>;

/** `INFO commandstats`: `cmdstat_<name>:calls=..,usec=..,...` per command. */
async function commandStats(url: string): Promise<Stats> {
  const redis = new Redis(url);
  try {
    const stats: Stats = new Map();
    for (const line of (await redis.info('commandstats')).split('\n')) {
      const match = /^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/.exec(line.trim());
      if (match?.[1] !== undefined) {
        stats.set(match[1], { calls: Number(match[2]), usec: Number(match[3]) });
      }
    }
    return stats;
  } finally {
    redis.disconnect();
  }
}

/** In the child: enqueue, then burn down with the server's command counts read around it. */
export async function measureCommands(task: ProbeTask): Promise<CommandResult> {
  const runner = await openQueue(task);
  try {
    await enqueueInBatches(runner, task.jobs, ENQUEUE_BATCH);
    const before = await commandStats(task.urls.redis);
    await runner.startWorker(() => {});
    await runner.settled(task.jobs);
    const after = await commandStats(task.urls.redis);
    await runner.stopWorker();
    const calls: Record<string, number> = {};
    const usec: Record<string, number> = {};
    for (const [name, end] of after) {
      const start = before.get(name) ?? { calls: 0, usec: 0 };
      if (end.calls === start.calls) continue;
      calls[name] = (end.calls - start.calls) / task.jobs;
      usec[name] = (end.usec - start.usec) / task.jobs;
    }
    return { calls, usec };
  } finally {
    await runner.close();
  }
}
