import { randomUUID } from 'node:crypto';
import { type Driver, isBerthError } from '@berth/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNatsDriver } from '../src/index.js';
import { natsDriver } from './nats-factory.js';

const JOBS = 3_000;
const CLAIMERS = 8;

/** Claims and acks in batches until a claim finds nothing; answers the ids it acked. */
async function drain(driver: Driver, workerId: string): Promise<string[]> {
  const acked: string[] = [];
  for (;;) {
    const claimed = await driver.claim({
      queues: ['work'],
      limit: 25,
      workerId,
      visibilityTimeoutMs: 60_000,
    });
    if (claimed.length === 0) return acked;
    const landed = await driver.ackMany(
      claimed.map((job) => ({ fence: { jobId: job.id, workerId, claim: job.claim } })),
    );
    expect(landed.every(Boolean)).toBe(true);
    acked.push(...claimed.map((job) => job.id));
  }
}

describe('nats driver with independent connections racing on one prefix', () => {
  let made: Awaited<ReturnType<typeof natsDriver>>;
  let others: Driver[];

  beforeAll(async () => {
    made = await natsDriver();
    others = Array.from({ length: CLAIMERS }, () =>
      createNatsDriver({ servers: made.url, prefix: made.prefix }),
    );
  });

  afterAll(async () => {
    await Promise.all(others.map((driver) => driver.close()));
    await made.dispose();
  });

  it('8 claimers on their own connections ack each of 3,000 jobs exactly once', async () => {
    const ids = Array.from({ length: JOBS }, () => randomUUID());
    for (let at = 0; at < JOBS; at += 500) {
      await made.driver.enqueueMany(
        ids.slice(at, at + 500).map((id, index) => ({
          id,
          name: 'work',
          queue: 'work',
          priority: index % 3,
        })),
      );
    }
    const acked = (
      await Promise.all(others.map((driver, index) => drain(driver, `worker-${index}`)))
    ).flat();
    expect(acked).toHaveLength(JOBS);
    expect(new Set(acked)).toEqual(new Set(ids));
    const [stats] = await made.driver.stats();
    expect(stats?.counts).toMatchObject({ completed: JOBS, running: 0, ready: 0 });
    const { jobs } = await made.driver.list({ queue: 'work', limit: 500 });
    expect(new Set(jobs.map((job) => job.claim))).toEqual(new Set([1]));
  }, 120_000);

  it('concurrent enqueues of one key on 8 connections make one job, every caller answered it', async () => {
    for (let round = 0; round < 10; round += 1) {
      const request = { name: 'once', queue: 'keys', idempotencyKey: `key-${round}` };
      const answers = await Promise.all(others.map((driver) => driver.enqueue(request)));
      const ids = new Set(answers.map((answer) => answer.id));
      expect(ids.size).toBe(1);
      expect(answers.filter((answer) => !answer.deduped)).toHaveLength(1);
    }
    const { jobs } = await made.driver.list({ queue: 'keys', limit: 100 });
    expect(jobs).toHaveLength(10);
  }, 60_000);

  it('concurrent batches sharing keys land all or nothing: each key one live job', async () => {
    const keys = Array.from({ length: 20 }, (_, index) => `batch-key-${index}`);
    const answers = await Promise.all(
      others.map((driver, index) =>
        driver.enqueueMany(
          keys.map((key, at) => ({
            name: 'batched',
            queue: 'batches',
            idempotencyKey: keys[(at + index) % keys.length] ?? key,
          })),
        ),
      ),
    );
    const byKey = new Map<string, Set<string>>();
    for (const batch of answers) {
      for (const [at, answer] of batch.entries()) {
        const set = byKey.get(String(at)) ?? new Set();
        set.add(answer.id);
        byKey.set(String(at), set);
      }
    }
    const { jobs } = await made.driver.list({ queue: 'batches', limit: 100 });
    expect(jobs).toHaveLength(keys.length);
    expect(new Set(jobs.map((job) => job.idempotencyKey))).toEqual(new Set(keys));
    const answered = new Set(answers.flat().map((answer) => answer.id));
    expect(answered).toEqual(new Set(jobs.map((job) => job.id)));
  }, 60_000);

  it('concurrent requeues of one job on 8 connections: exactly one lands, the rest answer live', async () => {
    for (const idempotencyKey of [undefined, 'requeued-key']) {
      const { id } = await made.driver.enqueue({
        name: 'again',
        queue: `requeue-${idempotencyKey ?? 'plain'}`,
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      });
      await made.driver.cancel(id);
      const outcomes = await Promise.all(
        others.map((driver) =>
          driver.requeue(id).then(
            () => 'landed',
            (error: unknown) => error,
          ),
        ),
      );
      expect(outcomes.filter((outcome) => outcome === 'landed')).toHaveLength(1);
      for (const outcome of outcomes.filter((value) => value !== 'landed')) {
        expect(isBerthError(outcome, 'JOB_NOT_REQUEUEABLE')).toBe(true);
      }
      expect((await made.driver.get(id))?.state).toBe('ready');
    }
  }, 60_000);

  it('a publish racing a suspend on another connection always wakes the waiter', async () => {
    const [waiter, publisher] = others;
    if (waiter === undefined || publisher === undefined) throw new Error('no drivers');
    const { id } = await waiter.enqueue({ name: 'waits', queue: 'race' });
    for (let round = 0; round < 10; round += 1) {
      const [job] = await waiter.claim({
        queues: ['race'],
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
      });
      expect(job?.id).toBe(id);
      const fence = { jobId: id, workerId: 'w', claim: job?.claim ?? 0 };
      // The waiter looked for the event just before; now its suspend and the publish race.
      const since = Date.now();
      const [suspended] = await Promise.all([
        waiter.suspend(fence, {
          until: since + 3_600_000,
          waitFor: `paid-${round}`,
          eventsSince: since,
        }),
        publisher.events.publish(`paid-${round}`, { round }),
      ]);
      expect(suspended).toBe(true);
      for (const reader of [waiter, publisher]) expect((await reader.get(id))?.state).toBe('ready');
    }
  }, 60_000);

  it('slot races on 8 connections never grant more than the limit', async () => {
    for (let round = 0; round < 5; round += 1) {
      const granted = await Promise.all(
        others.map((driver, index) =>
          driver.leases.acquireSlot(`slot-${round}`, 3, `h${index}`, 60_000),
        ),
      );
      expect(granted.filter(Boolean)).toHaveLength(3);
    }
  }, 60_000);
});
