import { Counter, pollUntil } from '../countdown.ts';
import { schemaFor } from '../naming.ts';
import { analyzeSchema } from './pg-admin.ts';
import { type QueueRunner, type SystemDefinition, seqOf } from './types.ts';

/**
 * graphile-worker's documented performance configuration
 * (https://worker.graphile.org/docs/performance): 24 concurrent jobs on a pool of 25, a local
 * queue of 500 fetched in one batch, and completions batched (delay 0). `NO_LOG_SUCCESS` is set
 * for the child (see run-child.ts) and info logs are dropped, as in its perf test.
 */
const WORKER_PRESET = {
  concurrentJobs: 24,
  maxPoolSize: 25,
  localQueue: { size: 500 },
  completeJobBatchDelay: 0,
  failJobBatchDelay: 0,
} as const;

/**
 * The better configuration an independent sweep found for a burn-down (issue 27): the preset
 * with a local queue of 1,000 and completions gathered for 10 ms.
 */
const BATCHED_PRESET = {
  ...WORKER_PRESET,
  localQueue: { size: 1_000 },
  completeJobBatchDelay: 10,
} as const;

type Preset = typeof WORKER_PRESET | typeof BATCHED_PRESET;

const graphileSystem = (name: string, preset: Preset, settings: string): SystemDefinition => ({
  name,
  role: 'peer',
  server: 'pg',
  floor: 'pg-floor',
  workloads: ['burn20k', 'burn20k-analyzed', 'burn100k', 'bulk', 'latency', 'mixed'],
  settings,
  available: () => true,
  async open(task) {
    const gw = await import('graphile-worker');
    const connectionString = task.urls.pg;
    const schema = schemaFor(task.tag);
    // Warnings and errors only: a log line per job would measure the console.
    const logger = new gw.Logger(() => (level, message) => {
      if (level === 'error' || level === 'warning') console.error(`[graphile-worker] ${message}`);
    });
    await gw.runMigrations({ connectionString, schema, logger });
    const utils = await gw.makeWorkerUtils({ connectionString, schema, logger });
    const handled = new Counter();
    let runner: Awaited<ReturnType<typeof gw.run>> | undefined;

    const remaining = () =>
      utils.withPgClient(async (client) => {
        const { rows } = await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${schema}._private_jobs`,
        );
        return rows[0]?.n ?? 0;
      });

    const queue: QueueRunner = {
      kind: 'queue',
      async enqueueBatch(first, count) {
        const specs = new Array(count);
        for (let i = 0; i < count; i++)
          specs[i] = { identifier: 'noop', payload: { seq: first + i } };
        await utils.addJobs(specs);
      },
      async enqueueOne(seq) {
        await utils.addJob('noop', { seq });
      },
      async startWorker(onStart) {
        runner = await gw.run({
          noHandleSignals: true,
          logger,
          taskList: {
            noop: async (payload) => {
              handled.add();
              onStart(seqOf(payload));
            },
          },
          preset: { worker: { connectionString, schema, ...preset } },
        });
      },
      async settled(total) {
        // Completions are batched behind the handler: done once the rows are gone.
        await handled.reach(total);
        await pollUntil(async () => (await remaining()) === 0);
      },
      async stopWorker() {
        await runner?.stop();
        runner = undefined;
      },
      analyze: () => analyzeSchema(connectionString, schema),
      async close() {
        await queue.stopWorker();
        await utils.release();
      },
    };
    return queue;
  },
});

export const graphileWorker = graphileSystem(
  'graphile-worker',
  WORKER_PRESET,
  'graphile-worker 0.17 perf preset: concurrentJobs 24, maxPoolSize 25, localQueue.size 500, completeJobBatchDelay 0, failJobBatchDelay 0; addJobs / addJob',
);

export const graphileWorkerBatched = graphileSystem(
  'graphile-worker-batched',
  BATCHED_PRESET,
  'graphile-worker 0.17 perf preset with localQueue.size 1000 and completeJobBatchDelay 10; addJobs / addJob',
);
