import type { Driver } from '@berth/core';
import { expect } from 'vitest';
import { KIT_LIFECYCLE_RETENTION, type KitCase } from '../../kit.js';
import { enqueueAndClaim, fenceOf, freshQueue, WORKER } from '../fixtures/index.js';
import { readAll, told } from './lifecycle-support.js';

const RETENTION = KIT_LIFECYCLE_RETENTION;
/** Jobs claimed then acked: twice as many events, more than twice the retention. */
const JOBS = RETENTION + 100;

/** Trims until a call removes nothing, failing past a bound (a trim that never ends). */
async function trimAll(driver: Driver): Promise<void> {
  for (let calls = 0; calls < 20; calls += 1) {
    if ((await driver.lifecycle.trim({ limit: 500 })) === 0) return;
  }
  throw new Error('lifecycle.trim still removed events after 20 calls');
}

export const lifecycleRetentionCases: readonly KitCase[] = [
  {
    title: `past twice its lifecycleRetention (${RETENTION}) events, the stream keeps at least the newest ${RETENTION} and, once trimmed, at most twice as many: the newest, in order`,
    run: async ({ driver }) => {
      const early = await enqueueAndClaim(driver, { name: 'early' });
      const [first] = await readAll(driver);
      const queue = freshQueue();
      await driver.enqueueMany(Array.from({ length: JOBS }, () => ({ name: 'bulk', queue })));
      const claimed = await driver.claim({
        queues: [queue],
        workerId: WORKER,
        visibilityTimeoutMs: 60_000,
        limit: JOBS,
      });
      expect(claimed).toHaveLength(JOBS);
      const acked = await driver.ackMany(claimed.map((job) => ({ fence: fenceOf(job) })));
      expect(acked.every(Boolean)).toBe(true);
      await trimAll(driver);
      const kept = told(await readAll(driver, {}, 100));
      expect(kept.length).toBeGreaterThanOrEqual(RETENTION);
      expect(kept.length).toBeLessThanOrEqual(2 * RETENTION);
      // The newest events are the acks' completed ones; what is kept is a suffix of the stream.
      expect(kept.slice(-RETENTION).every((event) => event.type === 'completed')).toBe(true);
      const firstCompleted = kept.findIndex((event) => event.type === 'completed');
      expect(kept.slice(firstCompleted).every((event) => event.type === 'completed')).toBe(true);
      expect(kept.slice(firstCompleted)).toHaveLength(Math.min(JOBS, kept.length));
      expect(kept.some((event) => event.jobId === early.job.id)).toBe(false);
      // A position whose event was trimmed reads on from the oldest kept event after it.
      expect(first?.jobId).toBe(early.job.id);
      const resumed = await driver.lifecycle.read({ after: first?.position, limit: 3 });
      expect(told(resumed.events)).toStrictEqual(kept.slice(0, 3));
    },
  },
];
