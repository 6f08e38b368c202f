import { setTimeout as sleep } from 'node:timers/promises';
import { type Driver, isBerthError } from '@berth/core';
import { eventually, type PrivateServer, pollUntil, startPrivateServer } from '@berth/test-servers';
import { describe, expect, it } from 'vitest';
import { createNatsDriver } from '../src/index.js';

/** How long the driver may take to serve again after its server came back. */
const RECONNECT = { withinMs: 20_000 };

interface Traffic {
  /** Ids whose enqueue answered: each must exist after the restart. */
  readonly enqueued: string[];
  /** Ids whose ack landed: each must read completed after the restart. */
  readonly acked: string[];
  readonly failures: unknown[];
}

/**
 * Enqueues and claim-and-acks in a loop until `stopped()`: every answer is recorded in `out`, as
 * it comes.
 */
async function traffic(driver: Driver, out: Traffic, stopped: () => boolean): Promise<void> {
  const enqueuing = (async () => {
    while (!stopped()) {
      try {
        out.enqueued.push((await driver.enqueue({ name: 'during', queue: 'faults' })).id);
      } catch (error) {
        out.failures.push(error);
        await sleep(20);
      }
    }
  })();
  const claiming = (async () => {
    while (!stopped()) {
      try {
        const jobs = await driver.claim({
          queues: ['faults'],
          limit: 5,
          workerId: 'w',
          visibilityTimeoutMs: 60_000,
        });
        const landed = await driver.ackMany(
          jobs.map((job) => ({ fence: { jobId: job.id, workerId: 'w', claim: job.claim } })),
        );
        jobs.forEach((job, index) => {
          if (landed[index] === true) out.acked.push(job.id);
        });
      } catch (error) {
        out.failures.push(error);
        await sleep(20);
      }
    }
  })();
  await Promise.all([enqueuing, claiming]);
}

/** A short grace makes the outage "long": the watch replays the bucket instead of resuming. */
const OUTAGES = [
  { resumes: 'resumes its watch', deleteMarkerGraceMs: 3_600_000 },
  { resumes: 'replays the bucket after a long outage', deleteMarkerGraceMs: 1_000 },
] as const;

describe('nats driver when its server restarts', () => {
  for (const { resumes, deleteMarkerGraceMs } of OUTAGES) {
    it(`calls during the outage fail DRIVER_UNAVAILABLE, nothing acknowledged is lost, and the driver ${resumes} and recovers by itself`, async () => {
      let server: PrivateServer | undefined;
      let driver: Driver | undefined;
      try {
        server = await startPrivateServer('nats');
        const live = createNatsDriver({
          servers: server.url(),
          prefix: 'faults',
          timeoutMs: 1_500,
          deleteMarkerGraceMs,
        });
        driver = live;
        const before = await live.enqueueMany(
          Array.from({ length: 20 }, () => ({ name: 'before', queue: 'faults' })),
        );
        const woke: string[] = [];
        await live.subscribe?.(['faults'], (queue) => woke.push(queue));

        let stop = false;
        const seen: Traffic = { enqueued: [], acked: [], failures: [] };
        const running = traffic(live, seen, () => stop);
        await sleep(300);
        await server.stop();
        // A call made while the server is away fails, and says so in the contract's words.
        const refused = await live
          .claim({ queues: ['faults'], workerId: 'w', visibilityTimeoutMs: 1_000 })
          .catch((error: unknown) => error);
        expect(isBerthError(refused, 'DRIVER_UNAVAILABLE')).toBe(true);
        if (isBerthError(refused)) {
          expect(refused.meta).toMatchObject({ driver: 'nats', operation: 'claim' });
          expect(refused.cause).toBeInstanceOf(Error);
        }
        await sleep(500);
        await server.start();
        // The traffic goes on until the driver serves it again: an enqueue and an ack answered
        // after the restart.
        const enqueuedBefore = seen.enqueued.length;
        const ackedBefore = seen.acked.length;
        await pollUntil(
          () => seen.enqueued.length > enqueuedBefore && seen.acked.length > ackedBefore,
          { what: 'an enqueue and an ack answered after the restart', withinMs: 30_000 },
        );
        stop = true;
        await running;

        expect(seen.failures.length).toBeGreaterThan(0);
        for (const failure of seen.failures) {
          expect(isBerthError(failure, 'DRIVER_UNAVAILABLE'), String(failure)).toBe(true);
        }
        // The driver came back by itself: it enqueues, claims and wakes again.
        const after = await eventually(
          () => live.enqueue({ name: 'after', queue: 'after' }),
          RECONNECT,
        );
        const [claimed] = await eventually(
          () => live.claim({ queues: ['after'], workerId: 'w', visibilityTimeoutMs: 60_000 }),
          RECONNECT,
        );
        expect(claimed?.id).toBe(after.id);
        woke.length = 0;
        await eventually(async () => {
          await live.enqueue({ name: 'again', queue: 'faults' });
          await sleep(100);
          if (woke.length === 0) throw new Error('no wake after the restart');
        }, RECONNECT);

        // Nothing the driver acknowledged is lost: every answered enqueue is there, every landed
        // ack reads completed, in the driver that lived through the restart and in a new one.
        const fresh = createNatsDriver({ servers: server.url(), prefix: 'faults' });
        try {
          for (const reader of [live, fresh]) {
            const ids = [...before.map((answer) => answer.id), ...seen.enqueued];
            const records = await Promise.all(ids.map((id) => reader.get(id)));
            expect(records.filter((record) => record === undefined)).toEqual([]);
            const acked = await Promise.all(seen.acked.map((id) => reader.get(id)));
            expect(acked.map((record) => record?.state)).toEqual(seen.acked.map(() => 'completed'));
          }
          expect(seen.enqueued.length).toBeGreaterThan(0);
          expect(seen.acked.length).toBeGreaterThan(0);
        } finally {
          await fresh.close();
        }
      } finally {
        await driver?.close();
        await server?.dispose();
      }
    }, 90_000);
  }
});
