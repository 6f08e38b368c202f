import { randomUUID } from 'node:crypto';
import { createManualClock, type Driver, screenEnqueue } from '@berth/core';
import { jetstream } from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newJob } from '../src/enqueue.js';
import { BATCH_GRACE_MS } from '../src/purge.js';
import { encodeJson, type StoredDoc } from '../src/record.js';
import { subjectsFor } from '../src/subjects.js';
import { natsDriver } from './nats-factory.js';

/**
 * Each multi-write change stopped between two of its writes, as a crashed writer leaves it: the
 * test writes what the writer had written so far straight into the buckets, then checks that the
 * driver's answers are still the contract's (nothing half done is visible, no key is blocked or
 * held twice, nothing acknowledged is missing).
 */

const T0 = Date.UTC(2026, 0, 1);
let app: NatsConnection;

beforeAll(async () => {
  const { url, dispose } = await natsDriver();
  await dispose();
  app = await connect({ servers: url });
});

afterAll(async () => {
  await app.close();
});

interface Crashed {
  readonly driver: Driver;
  readonly clock: ReturnType<typeof createManualClock>;
  readonly jobs: KV;
  readonly aux: KV;
  readonly subjects: ReturnType<typeof subjectsFor>;
  readonly dispose: () => Promise<void>;
}

async function setUp(): Promise<Crashed> {
  const clock = createManualClock(T0);
  const made = await natsDriver({ clock });
  await made.driver.stats();
  const kvm = new Kvm(jetstream(app));
  const subjects = subjectsFor(made.prefix);
  return {
    driver: made.driver,
    clock,
    jobs: await kvm.open(subjects.jobsBucket),
    aux: await kvm.open(subjects.auxBucket),
    subjects,
    dispose: made.dispose,
  };
}

/** The pending row a keyed enqueue writes first, and its holder write, as the driver makes them. */
function pendingRow(key: string, batch: string, solo: boolean) {
  const request = screenEnqueue({ name: 'crashy', queue: 'crash', idempotencyKey: key }, 1_048_576);
  const job = newJob(request, randomUUID(), T0);
  const doc: StoredDoc = { pending: { batch, solo, create: job } };
  const holder = { id: job.id, name: job.name, key };
  return { job, doc, holder };
}

describe('a multi-write change stopped half way', () => {
  it('a keyed enqueue stopped after its pending write: nothing visible, the key free, a purge drops it after the grace', async () => {
    const crash = await setUp();
    try {
      const { job, doc } = pendingRow('k', randomUUID(), true);
      await crash.jobs.create(crash.subjects.job(job.id), encodeJson(doc));
      expect(await crash.driver.get(job.id)).toBeUndefined();
      expect((await crash.driver.list()).jobs).toEqual([]);
      const next = await crash.driver.enqueue({
        name: 'crashy',
        queue: 'crash',
        idempotencyKey: 'k',
      });
      expect(next.deduped).toBe(false);
      expect(next.id).not.toBe(job.id);
      await crash.clock.advance(BATCH_GRACE_MS + 1);
      await crash.driver.purge({ states: ['completed'], olderThan: T0 });
      const left = await crash.jobs.get(crash.subjects.job(job.id));
      expect(left === null || left.operation !== 'PUT').toBe(true);
    } finally {
      await crash.dispose();
    }
  });

  it('a keyed enqueue stopped after pointing its holder: the next enqueue of the key commits it and answers it', async () => {
    const crash = await setUp();
    try {
      const { job, doc, holder } = pendingRow('k', randomUUID(), true);
      await crash.jobs.create(crash.subjects.job(job.id), encodeJson(doc));
      await crash.aux.create(crash.subjects.holder('crashy', undefined, 'k'), encodeJson(holder));
      expect(await crash.driver.get(job.id)).toBeUndefined();
      const next = await crash.driver.enqueue({
        name: 'crashy',
        queue: 'crash',
        idempotencyKey: 'k',
      });
      expect(next).toEqual({ id: job.id, runId: job.runId, deduped: true });
      expect((await crash.driver.get(job.id))?.state).toBe('ready');
      expect((await crash.driver.list()).jobs.map((row) => row.id)).toEqual([job.id]);
    } finally {
      await crash.dispose();
    }
  });

  it('a batch stopped before its decision: none of its rows visible, its key taken by the next enqueue', async () => {
    const crash = await setUp();
    try {
      const batch = randomUUID();
      const rows = [pendingRow('a', batch, false), pendingRow('b', batch, false)];
      for (const { job, doc, holder } of rows) {
        await crash.jobs.create(crash.subjects.job(job.id), encodeJson(doc));
        await crash.aux.create(
          crash.subjects.holder('crashy', undefined, holder.key),
          encodeJson(holder),
        );
      }
      expect((await crash.driver.list()).jobs).toEqual([]);
      const next = await crash.driver.enqueue({
        name: 'crashy',
        queue: 'crash',
        idempotencyKey: 'a',
      });
      expect(next.deduped).toBe(false);
      for (const { job } of rows) expect(await crash.driver.get(job.id)).toBeUndefined();
      expect((await crash.driver.list()).jobs.map((row) => row.id)).toEqual([next.id]);
      const [stats] = await crash.driver.stats();
      expect(stats?.counts.ready).toBe(1);
    } finally {
      await crash.dispose();
    }
  });

  it('a keyed requeue stopped before its decision: the row still reads settled, and a later requeue lands', async () => {
    const crash = await setUp();
    try {
      const { id } = await crash.driver.enqueue({
        name: 'crashy',
        queue: 'crash',
        idempotencyKey: 'k',
      });
      await crash.driver.cancel(id);
      const entry = await crash.jobs.get(crash.subjects.job(id));
      if (entry === null) throw new Error('the row is gone');
      const doc = JSON.parse(new TextDecoder().decode(entry.value)) as StoredDoc;
      const stopped: StoredDoc = {
        ...doc,
        pending: { batch: randomUUID(), solo: true, requeue: { at: T0 } },
      };
      await crash.jobs.update(crash.subjects.job(id), encodeJson(stopped), entry.revision);
      expect((await crash.driver.get(id))?.state).toBe('cancelled');
      expect((await crash.driver.requeue(id)).state).toBe('ready');
      const again = await crash.driver.enqueue({
        name: 'crashy',
        queue: 'crash',
        idempotencyKey: 'k',
      });
      expect(again).toMatchObject({ id, deduped: true });
    } finally {
      await crash.dispose();
    }
  });

  it('a step whose record was written but whose fenced write never landed is never read', async () => {
    const crash = await setUp();
    try {
      const { id, runId } = await crash.driver.enqueue({ name: 'crashy', queue: 'crash' });
      const [job] = await crash.driver.claim({
        queues: ['crash'],
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
      });
      expect(job?.id).toBe(id);
      const step = {
        runId,
        name: 'orphan',
        status: 'completed',
        output: 1,
        attempts: 1,
        startedAt: T0,
        updatedAt: T0,
      };
      await crash.aux.put(crash.subjects.stepEntry(runId, 'lost'), encodeJson({ put: step }));
      expect(await crash.driver.steps.get(runId, 'orphan')).toBeUndefined();
      expect(await crash.driver.steps.list(runId)).toEqual([]);
    } finally {
      await crash.dispose();
    }
  });
});
