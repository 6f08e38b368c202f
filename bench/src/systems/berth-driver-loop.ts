import type { AckItem, Driver, EnqueueRequest } from '@berth/core';
import { Counter, sleep } from '../countdown.ts';
import { type QueueRunner, seqOf } from './types.ts';

const CLAIM_BATCH = 1_000;

export const DRIVER_LOOP_SETTINGS = `driver.enqueueMany; claim(${CLAIM_BATCH})→ackMany in --driver-loops overlapping loops (default 1), no runtime`;

/**
 * Berth's driver alone, as the issue measures it: `claim(1000)` then `ackMany` of what it got, in
 * `loops` overlapping loops. What the runtime would reach if it cost nothing.
 */
export function berthDriverLoopRunner(
  driver: Driver,
  loops: number,
  extra: { analyze?: () => Promise<void> } = {},
) {
  const acked = new Counter();
  let running: Promise<void>[] = [];
  let stopping = false;

  async function loop(workerId: string, onStart: (seq: number) => void): Promise<void> {
    while (!stopping) {
      const jobs = await driver.claim({
        queues: ['default'],
        workerId,
        visibilityTimeoutMs: 60_000,
        limit: CLAIM_BATCH,
      });
      if (jobs.length === 0) {
        await sleep(1);
        continue;
      }
      const items: AckItem[] = [];
      for (const job of jobs) {
        onStart(seqOf(job.payload));
        items.push({ fence: { jobId: job.id, workerId: job.claimedBy, claim: job.claim } });
      }
      await driver.ackMany(items);
      acked.add(jobs.length);
    }
  }

  const runner: QueueRunner = {
    kind: 'queue',
    async enqueueBatch(first, count) {
      const requests: EnqueueRequest[] = new Array(count);
      for (let i = 0; i < count; i++) requests[i] = { name: 'noop', payload: { seq: first + i } };
      await driver.enqueueMany(requests);
    },
    async enqueueOne(seq) {
      await driver.enqueue({ name: 'noop', payload: { seq } });
    },
    async startWorker(onStart) {
      stopping = false;
      running = Array.from({ length: loops }, (_, index) => loop(`bench-loop-${index}`, onStart));
    },
    settled: (total) => acked.reach(total),
    async stopWorker() {
      stopping = true;
      await Promise.all(running);
      running = [];
    },
    async close() {
      await runner.stopWorker();
      await driver.close();
    },
    ...(extra.analyze === undefined ? {} : { analyze: extra.analyze }),
  };
  return runner;
}
