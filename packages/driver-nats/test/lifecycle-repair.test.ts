import type { Driver, LifecycleEvent } from '@berth/core';
import type { Fence, ScreenedClaim } from '@berth/core/driver';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claim } from '../src/claim.js';
import type { NatsContext } from '../src/context.js';
import { deleteById } from '../src/delete.js';
import { readDoc } from '../src/docs.js';
import { ensureSent } from '../src/lifecycle-announce.js';
import { REPAIR_GRACE_MS } from '../src/lifecycle-repair.js';
import { BLIND_MS, publishEvent } from '../src/lifecycle-stream.js';
import { cancel } from '../src/operator.js';
import { encodeJson, type StoredJob } from '../src/record.js';
import { ack, nack } from '../src/settle.js';
import { natsDriver, openTestContext } from './nats-factory.js';

/**
 * A writer that dies (or whose publish fails) between a transition's write and its publish: the
 * kit cannot kill a process there, so the seam `beforePublish` throws at that point instead.
 */
let driver: Driver;
let url: string;
let prefix: string;
let dispose: () => Promise<void>;
const contexts: NatsContext[] = [];
/** The process holding the repair pass (so the driver's own pass stays out of each case). */
let repairer: NatsContext;

beforeEach(async () => {
  const made = await natsDriver({ lifecycleRetention: 16 });
  ({ driver, url, prefix, dispose } = made);
  repairer = await process();
  await repairer.repair.pass();
});

afterEach(async () => {
  for (const context of contexts.splice(0)) {
    context.repair.stop();
    context.stopStatus();
    context.mirror.stop();
    context.wake.close();
    await context.nc.close();
  }
  await dispose();
});

/** Another process of the deployment, with its repair pass left to the test. */
async function process(): Promise<NatsContext> {
  const context = await openTestContext(url, prefix, 3_600_000, 16);
  context.repair.stop();
  contexts.push(context);
  return context;
}

/** The process dies after its next write lands, before it publishes the write's events. */
function dieBeforePublish(context: NatsContext): void {
  context.lifecycle.beforePublish = () => {
    context.lifecycle.beforePublish = undefined;
    throw new Error('the process died before it published');
  };
}

const request = (queue: string): ScreenedClaim => ({
  queues: [queue],
  limit: 1,
  workerId: 'w',
  visibilityTimeoutMs: 60_000,
  names: undefined,
  dropExhausted: [],
});

async function claimOne(context: NatsContext, queue: string): Promise<Fence> {
  const { claimed } = await claim(context, request(queue));
  const [job] = claimed;
  if (job === undefined) throw new Error('nothing was claimed');
  return { jobId: job.id, workerId: 'w', claim: job.claim };
}

const kinds = (events: readonly LifecycleEvent[]) =>
  events.map((event) => `${event.type}@${event.attempt}`);

async function eventsOf(jobId: string): Promise<readonly LifecycleEvent[]> {
  return (await driver.lifecycle.read({ jobId })).events;
}

/** Rewrites the job's record as if its last change had been written `ms` ago (real time). */
async function age(context: NatsContext, jobId: string, ms: number): Promise<StoredJob> {
  const entry = await readDoc(context, jobId);
  const job = entry?.doc.job;
  if (entry === undefined || job?.lc === undefined) throw new Error('no lifecycle tail');
  const older: StoredJob = { ...job, lc: { ...job.lc, wall: job.lc.wall - ms } };
  await context.jobs.update(
    context.subjects.job(jobId),
    encodeJson({ job: older }),
    entry.revision,
  );
  return older;
}

describe('a transition whose events were never published', () => {
  it('is published by the next writer of the record, before that writer’s own event, once', async () => {
    const worker = await process();
    const queue = 'q';
    const { id } = await driver.enqueue({ name: 'task', queue });
    dieBeforePublish(worker);
    await expect(claimOne(worker, queue)).rejects.toThrow('died before it published');
    expect(await eventsOf(id)).toEqual([]);
    // The claim's row was given back; the claim landed, so its `active` is still owed.
    const fence = await claimOne(worker, queue);
    expect(await ack(worker, fence, {})).toBe(true);
    expect(kinds(await eventsOf(id))).toEqual(['active@1', 'active@1', 'completed@1']);
    await repairer.repair.pass(Date.now() + REPAIR_GRACE_MS);
    expect(kinds(await eventsOf(id))).toEqual(['active@1', 'active@1', 'completed@1']);
  });

  it('is published before a cancel from another process, and only once though the first copy reached the stream', async () => {
    const [worker, operator] = [await process(), repairer];
    const queue = 'q';
    const { id } = await driver.enqueue({ name: 'task', queue });
    // The stream took the claim's event, but its answer never came back.
    worker.lifecycle.beforePublish = async (jobId) => {
      worker.lifecycle.beforePublish = undefined;
      const job = (await readDoc(worker, jobId))?.doc.job as StoredJob;
      const subject = worker.subjects.lifecycle(jobId);
      const event = { type: 'active', jobId, name: 'task', queue, attempt: 1, at: 0 } as const;
      await publishEvent(
        worker.lifecycle.stream,
        subject,
        { ...event, s: job.seq ?? 0, k: 1 },
        `${jobId}:${job.seq}:1`,
      );
      throw new Error('the publish answer was lost');
    };
    await expect(claimOne(worker, queue)).rejects.toThrow('answer was lost');
    await cancel(operator, id, {});
    expect(kinds(await eventsOf(id))).toEqual(['active@1', 'cancelled@0']);
  });

  it('older than a blind copy may be, is published after a look at the job’s newest stored event, before the next one', async () => {
    const [worker, operator] = [await process(), repairer];
    const queue = 'q';
    const { id } = await driver.enqueue({ name: 'task', queue });
    const fence = await claimOne(worker, queue);
    dieBeforePublish(worker);
    const error = { code: 'E', message: 'gave up' };
    await expect(nack(worker, fence, { error, final: true })).rejects.toThrow('died before');
    await age(operator, id, BLIND_MS);
    await driver.requeue(id);
    await cancel(operator, id, {});
    expect(kinds(await eventsOf(id))).toEqual(['active@1', 'dead@1', 'cancelled@0']);
  });

  it('that is the job’s last is published by the repair pass once past its grace, and a second pass adds nothing', async () => {
    const worker = await process();
    const queue = 'q';
    const { id } = await driver.enqueue({ name: 'task', queue });
    const fence = await claimOne(worker, queue);
    dieBeforePublish(worker);
    await expect(ack(worker, fence, {})).rejects.toThrow('died before it published');
    expect(kinds(await eventsOf(id))).toEqual(['active@1']);
    await repairer.mirror.syncFull();
    expect(await repairer.repair.pass(Date.now())).toBe(0);
    expect(await repairer.repair.pass(Date.now() + REPAIR_GRACE_MS)).toBe(1);
    expect(kinds(await eventsOf(id))).toEqual(['active@1', 'completed@1']);
    expect(await repairer.repair.pass(Date.now() + REPAIR_GRACE_MS)).toBe(0);
    expect(kinds(await eventsOf(id))).toEqual(['active@1', 'completed@1']);
  });

  it('is published by a delete before the record goes', async () => {
    const worker = await process();
    const queue = 'q';
    const { id } = await driver.enqueue({ name: 'task', queue });
    const fence = await claimOne(worker, queue);
    dieBeforePublish(worker);
    await expect(ack(worker, fence, {})).rejects.toThrow('died before it published');
    await deleteById(await process(), id, {});
    expect(kinds(await eventsOf(id))).toEqual(['active@1', 'completed@1']);
  });

  it('is left out, not published twice, once the stream trimmed past all its writer knew and no job event is kept', async () => {
    const worker = await process();
    const queue = 'q';
    const { id } = await driver.enqueue({ name: 'task', queue });
    const fence = await claimOne(worker, queue);
    dieBeforePublish(worker);
    await expect(ack(worker, fence, {})).rejects.toThrow('died before it published');
    const old = await age(repairer, id, BLIND_MS);
    const others = await driver.enqueueMany(
      Array.from({ length: 20 }, () => ({ name: 'x', queue: 'other' })),
    );
    await driver.claim({
      queues: ['other'],
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
      limit: 20,
    });
    expect(others).toHaveLength(20);
    await ensureSent(repairer, old);
    expect(repairer.lifecycle.abandoned).toBe(1);
    expect(await eventsOf(id)).toEqual([]);
  });
});

describe('the repair pass', () => {
  /** Messages `context` sent while `call` ran. */
  async function sent(context: NatsContext, call: () => Promise<unknown>): Promise<number> {
    const before = context.nc.stats().outMsgs;
    await call();
    return context.nc.stats().outMsgs - before;
  }

  it('sends nothing while nothing is owed and its lease is fresh, one write to renew it; another process reads the key once per 5 s', async () => {
    const now = Date.now();
    expect(await sent(repairer, () => repairer.repair.pass(now))).toBe(0);
    expect(await sent(repairer, () => repairer.repair.pass(now + 6_000))).toBe(1);
    const other = await process();
    expect(await sent(other, () => other.repair.pass(now))).toBe(1);
    expect(await sent(other, () => other.repair.pass(now + 1_000))).toBe(0);
    expect(await sent(other, () => other.repair.pass(now + 5_000))).toBe(1);
  });
});
