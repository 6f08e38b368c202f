import { createClient, createWorker, type Driver, defineJob, type Worker } from '@berth/core';
import { Counter } from '../countdown.ts';
import type { NoopPayload, QueueRunner } from './types.ts';

/**
 * The worker settings Berth runs at. Concurrency is `--berth-concurrency` (one claim fills every
 * free slot, up to MAX_CLAIM_BATCH); the rest are the defaults.
 */
export const BERTH_WORKER = {
  visibilityTimeoutMs: 60_000,
  settleBatchMs: 5,
  pollIntervalMs: 1_000,
} as const;

export const BERTH_SETTINGS = `createWorker concurrency --berth-concurrency, settleBatchMs ${BERTH_WORKER.settleBatchMs}, pollIntervalMs ${BERTH_WORKER.pollIntervalMs}; client.enqueueMany / client.enqueue`;

/** Berth through its public API: `createClient` enqueues, one `createWorker` works. */
export function berthRuntimeRunner(
  driver: Driver,
  concurrency: number,
  extra: { analyze?: () => Promise<void> } = {},
) {
  let onStart: (seq: number) => void = () => {};
  const noop = defineJob<NoopPayload>({
    name: 'noop',
    run: async ({ payload }) => {
      onStart(payload.seq);
    },
  });
  const client = createClient({ driver, jobs: [noop] });
  const completed = new Counter();
  let worker: Worker | undefined;

  const runner: QueueRunner = {
    kind: 'queue',
    async enqueueBatch(first, count) {
      const items = new Array(count);
      for (let i = 0; i < count; i++) items[i] = { job: noop, payload: { seq: first + i } };
      await client.enqueueMany(items);
    },
    async enqueueOne(seq) {
      await client.enqueue(noop, { seq });
    },
    async startWorker(listener) {
      onStart = listener;
      worker = createWorker({ driver, jobs: [noop], concurrency, ...BERTH_WORKER });
      worker.on('completed', () => completed.add());
      await worker.start();
    },
    settled: (total) => completed.reach(total),
    async stopWorker() {
      await worker?.stop({ graceMs: 5_000 });
      worker = undefined;
    },
    async close() {
      await runner.stopWorker();
      await driver.close();
    },
    ...(extra.analyze === undefined ? {} : { analyze: extra.analyze }),
  };
  return runner;
}
