import { randomUUID } from 'node:crypto';
import {
  createManualClock,
  type Driver,
  type MarkedEnqueueRequest,
  screenEnqueue,
} from '@berth/core';
import { jetstream } from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newJob } from '../src/enqueue.js';
import type { MarkDoc } from '../src/marks.js';
import { BATCH_GRACE_MS } from '../src/purge.js';
import { encodeJson, type StoredDoc, type StoredJob } from '../src/record.js';
import { subjectsFor } from '../src/subjects.js';
import { natsDriver } from './nats-factory.js';

/**
 * An enqueue with `advanceMark` stopped between its writes (pending row, key holder, the mark's
 * write that commits the row, the batch record), as a crashed or held-back writer leaves it: the
 * test writes what the writer had written straight into the buckets, then checks that the slot
 * lands exactly once and nothing half done shows.
 */

const T0 = Date.UTC(2026, 0, 1);
const MARK = 'schedule:crashy';
let app: NatsConnection;

beforeAll(async () => {
  const { url, dispose } = await natsDriver();
  await dispose();
  app = await connect({ servers: url });
});

afterAll(async () => {
  await app.close();
});

interface World {
  readonly driver: Driver;
  readonly clock: ReturnType<typeof createManualClock>;
  readonly jobs: KV;
  readonly aux: KV;
  readonly subjects: ReturnType<typeof subjectsFor>;
}

async function inWorld(run: (world: World) => Promise<void>): Promise<void> {
  const clock = createManualClock(T0);
  const made = await natsDriver({ clock });
  try {
    await made.driver.stats();
    const kvm = new Kvm(jetstream(app));
    const subjects = subjectsFor(made.prefix);
    const [jobs, aux] = [await kvm.open(subjects.jobsBucket), await kvm.open(subjects.auxBucket)];
    await run({ driver: made.driver, clock, jobs, aux, subjects });
  } finally {
    await made.dispose();
  }
}

const slot = (value: number, id: string = randomUUID()): MarkedEnqueueRequest => ({
  id,
  name: 'crashy',
  queue: 'crash',
  advanceMark: { name: MARK, value },
});

/** The row an enqueue of `request` writes first, pending on the mark's revision `revision`. */
async function pendingRow(world: World, request: MarkedEnqueueRequest, revision: number) {
  const job = newJob(screenEnqueue(request, 1_048_576), request.id as string, T0);
  const batch = randomUUID();
  const mark = { name: MARK, value: request.advanceMark.value, revision };
  const doc: StoredDoc = { pending: { batch, solo: false, create: job, mark } };
  await world.jobs.create(world.subjects.job(job.id), encodeJson(doc));
  return { job, batch };
}

const markRevision = async (world: World) =>
  (await world.aux.get(world.subjects.mark(MARK)))?.revision ?? 0;

async function claimAll(driver: Driver): Promise<string[]> {
  const jobs = await driver.claim({
    queues: ['crash'],
    limit: 10,
    workerId: 'w',
    visibilityTimeoutMs: 60_000,
  });
  return jobs.map((job) => job.id);
}

describe('an enqueue with advanceMark stopped half way', () => {
  it('stopped after its pending row: nothing shows and the mark is unraised; the next enqueue of the slot commits that row, once', async () => {
    await inWorld(async (world) => {
      const request = slot(T0);
      const { job } = await pendingRow(world, request, 0);
      expect(await world.driver.get(job.id)).toBeUndefined();
      expect(await world.driver.marks.get(MARK)).toBeUndefined();
      expect(await claimAll(world.driver)).toEqual([]);
      const retry = await world.driver.enqueue(request);
      expect(retry).toEqual({ id: job.id, runId: job.runId, deduped: true });
      expect(await world.driver.marks.get(MARK)).toBe(T0);
      expect(await world.driver.enqueue(request)).toEqual({ markPassed: true });
      expect(await claimAll(world.driver)).toEqual([job.id]);
    });
  });

  it('stopped after its mark write, before the batch record: the job shows at the next read of the mark, and a retry answers markPassed', async () => {
    await inWorld(async (world) => {
      const request = slot(T0);
      const { job, batch } = await pendingRow(world, request, 0);
      const mark: MarkDoc = { name: MARK, value: T0, batch, id: job.id };
      await world.aux.create(world.subjects.mark(MARK), encodeJson(mark));
      expect(await world.driver.get(job.id)).toBeUndefined();
      expect(await world.driver.marks.get(MARK)).toBe(T0);
      expect((await world.driver.get(job.id))?.state).toBe('ready');
      expect(await world.driver.enqueue(request)).toEqual({ markPassed: true });
      expect(await claimAll(world.driver)).toEqual([job.id]);
    });
  });

  it('stopped after its mark write, then a later slot enqueued: the later write records the earlier commit first, so both jobs show', async () => {
    await inWorld(async (world) => {
      const { job, batch } = await pendingRow(world, slot(T0), 0);
      const mark: MarkDoc = { name: MARK, value: T0, batch, id: job.id };
      await world.aux.create(world.subjects.mark(MARK), encodeJson(mark));
      const later = await world.driver.enqueue(slot(T0 + 1_000));
      expect(later).toMatchObject({ deduped: false });
      if ('markPassed' in later) throw new Error('the later slot was passed');
      expect((await claimAll(world.driver)).sort()).toEqual([job.id, later.id].sort());
    });
  });

  it('held back until the mark moved past the revision it read: its row never shows, the slot answers markPassed, and a purge after the grace drops the row', async () => {
    await inWorld(async (world) => {
      const request = slot(T0);
      const before = await markRevision(world);
      expect(await world.driver.enqueue(slot(T0))).toMatchObject({ deduped: false });
      await claimAll(world.driver);
      const { job } = await pendingRow(world, { ...request, id: randomUUID() }, before);
      expect(await world.driver.get(job.id)).toBeUndefined();
      expect(await world.driver.enqueue({ ...request, id: job.id })).toEqual({ markPassed: true });
      await world.clock.advance(BATCH_GRACE_MS + 1);
      await world.driver.purge({ states: ['completed'], olderThan: T0 });
      const left = await world.jobs.get(world.subjects.job(job.id));
      expect(left === null || left.operation !== 'PUT').toBe(true);
    });
  });

  it('stopped after its pending row and never retried: a purge after the grace makes it never commit and drops it; the slot is still enqueued once', async () => {
    await inWorld(async (world) => {
      const request = slot(T0);
      const { job } = await pendingRow(world, request, 0);
      await world.clock.advance(BATCH_GRACE_MS + 1);
      await world.driver.purge({ states: ['completed'], olderThan: T0 });
      const left = await world.jobs.get(world.subjects.job(job.id));
      expect(left === null || left.operation !== 'PUT').toBe(true);
      expect(await world.driver.marks.get(MARK)).toBeUndefined();
      const again = await world.driver.enqueue(request);
      expect(again).toMatchObject({ id: job.id, deduped: false });
      expect(await world.driver.marks.get(MARK)).toBe(T0);
      expect(await claimAll(world.driver)).toEqual([job.id]);
    });
  });

  it('a row an earlier driver version wrote job first: a retry answers it and raises the mark; once it ran and was purged, the purge raised the mark and a retry makes nothing', async () => {
    await inWorld(async (world) => {
      const written = async (request: MarkedEnqueueRequest) => {
        const { id } = request as { id: string };
        const job: StoredJob = {
          ...newJob(screenEnqueue(request, 1_048_576), id, T0),
          mark: request.advanceMark,
        };
        await world.jobs.create(world.subjects.job(id), encodeJson({ job } satisfies StoredDoc));
        return job;
      };
      const first = await written(slot(T0));
      expect(await world.driver.enqueue(slot(T0, first.id))).toMatchObject({ deduped: true });
      expect(await world.driver.marks.get(MARK)).toBe(T0);

      const second = await written(slot(T0 + 60_000));
      const claimed = await claimAll(world.driver);
      expect(claimed.sort()).toEqual([first.id, second.id].sort());
      for (const id of claimed) {
        const record = await world.driver.get(id);
        await world.driver.ack({ jobId: id, workerId: 'w', claim: record?.claim ?? 0 });
      }
      await world.clock.advance(1);
      expect(
        await world.driver.purge({ states: ['completed'], olderThan: world.clock.now() + 1 }),
      ).toBe(2);
      expect(await world.driver.marks.get(MARK)).toBe(T0 + 60_000);
      expect(await world.driver.enqueue(slot(T0 + 60_000, second.id))).toEqual({
        markPassed: true,
      });
      expect(await world.driver.get(second.id)).toBeUndefined();
    });
  });
});
