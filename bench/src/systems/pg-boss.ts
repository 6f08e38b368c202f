import { Counter, pollUntil } from '../countdown.ts';
import { schemaFor } from '../naming.ts';
import { analyzeSchema } from './pg-admin.ts';
import { type QueueRunner, type SystemDefinition, seqOf } from './types.ts';

/**
 * pg-boss 10 at its best for a no-op backlog: ONE `work()` taking batches of 5,000 (its loop
 * fetches, runs the batch, completes it in one statement, then waits out the rest of the polling
 * interval), polling at its minimum interval (0.5 s). Maintenance and cron are off: they are
 * background chores, not the job path.
 */
const WORK_OPTIONS = { batchSize: 5_000, pollingIntervalSeconds: 0.5 } as const;
const QUEUE = 'noop';

export const pgBoss: SystemDefinition = {
  name: 'pg-boss',
  role: 'peer',
  server: 'pg',
  floor: 'pg-floor',
  workloads: ['burn20k', 'burn20k-analyzed', 'burn100k', 'bulk', 'latency', 'mixed'],
  settings:
    'pg-boss 10: one work(), batchSize 5000, pollingIntervalSeconds 0.5 (its minimum), supervise/schedule off; insert / send',
  available: () => true,
  async open(task) {
    const { default: PgBoss } = await import('pg-boss');
    const connectionString = task.urls.pg;
    const schema = schemaFor(task.tag);
    // pg-boss names its connections itself; the meter finds the run's backends by this name.
    const application_name = process.env.PGAPPNAME ?? 'pgboss';
    const boss = new PgBoss({
      connectionString,
      schema,
      application_name,
      supervise: false,
      schedule: false,
    });
    boss.on('error', (error) => console.error(`[pg-boss] ${error.message}`));
    await boss.start();
    await boss.createQueue(QUEUE);
    const handled = new Counter();
    let working = false;

    const queue: QueueRunner = {
      kind: 'queue',
      async enqueueBatch(first, count) {
        const jobs = new Array(count);
        for (let i = 0; i < count; i++) jobs[i] = { name: QUEUE, data: { seq: first + i } };
        await boss.insert(jobs);
      },
      async enqueueOne(seq) {
        await boss.send(QUEUE, { seq });
      },
      async startWorker(onStart) {
        working = true;
        await boss.work(QUEUE, WORK_OPTIONS, async (jobs) => {
          handled.add(jobs.length);
          for (const job of jobs) onStart(seqOf(job.data));
        });
      },
      async settled(total) {
        // pg-boss completes a batch after its handler without awaiting it: done once none is left.
        await handled.reach(total);
        await pollUntil(
          async () => (await boss.getQueueSize(QUEUE, { before: 'completed' })) === 0,
        );
      },
      async stopWorker() {
        if (working) await boss.offWork(QUEUE);
        working = false;
      },
      analyze: () => analyzeSchema(connectionString, schema),
      async close() {
        await queue.stopWorker();
        await boss.stop({ graceful: false, wait: true });
      },
    };
    return queue;
  },
};
