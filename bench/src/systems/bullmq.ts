import { Counter } from '../countdown.ts';
import { prefixFor } from '../naming.ts';
import { redisTarget } from './redis-admin.ts';
import { type QueueRunner, type SystemDefinition, seqOf } from './types.ts';

/**
 * BullMQ 5 at concurrency 100 (its docs' advice for fast async jobs), enqueueing with `addBulk`.
 * Completed jobs are kept, as by default (and as Berth keeps its completed rows). Its own key
 * prefix on the bench's redis db; nothing is flushed.
 */
const CONCURRENCY = 100;
const QUEUE = 'noop';

export const bullmq: SystemDefinition = {
  name: 'bullmq',
  role: 'peer',
  server: 'redis',
  floor: 'redis-floor',
  workloads: ['burn20k', 'burn100k', 'bulk', 'latency', 'mixed'],
  settings: `BullMQ 5: one Worker, concurrency ${CONCURRENCY}, defaults otherwise; addBulk / add`,
  available: () => true,
  async open(task) {
    const { Queue, Worker } = await import('bullmq');
    const connection = { ...redisTarget(task.urls.redis), maxRetriesPerRequest: null };
    const prefix = prefixFor(task.tag);
    const queue = new Queue(QUEUE, { connection, prefix });
    await queue.waitUntilReady();
    const completed = new Counter();
    let worker: InstanceType<typeof Worker> | undefined;

    const runner: QueueRunner = {
      kind: 'queue',
      async enqueueBatch(first, count) {
        const jobs = new Array(count);
        for (let i = 0; i < count; i++) jobs[i] = { name: QUEUE, data: { seq: first + i } };
        await queue.addBulk(jobs);
      },
      async enqueueOne(seq) {
        await queue.add(QUEUE, { seq });
      },
      async startWorker(onStart) {
        worker = new Worker(
          QUEUE,
          async (job) => {
            onStart(seqOf(job.data));
          },
          { connection, prefix, concurrency: CONCURRENCY },
        );
        // 'completed' is emitted once moveToFinished has landed.
        worker.on('completed', () => completed.add());
        worker.on('error', (error) => console.error(`[bullmq] ${error.message}`));
        await worker.waitUntilReady();
      },
      settled: (total) => completed.reach(total),
      async stopWorker() {
        await worker?.close();
        worker = undefined;
      },
      async close() {
        await runner.stopWorker();
        await queue.close();
      },
    };
    return runner;
  },
};
