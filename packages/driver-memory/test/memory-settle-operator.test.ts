import { randomUUID } from 'node:crypto';
import type { StepRecord } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { claimOne, fenceOf, mustGet, refusal, running, setup, T0, VT } from './support.js';

const ERROR = { code: 'BOOM', message: 'it broke' };

const step = (runId: string, name: string): StepRecord => ({
  runId,
  name,
  status: 'completed',
  output: name,
  attempts: 1,
  startedAt: T0,
  updatedAt: T0,
});

describe('memory settles', () => {
  it('ack completes the row with its result and drops the lease fields', async () => {
    const { driver, clock } = setup();
    const { job, fence } = await running(driver);
    await clock.advance(5);
    expect(await driver.ack(fence, { result: { ok: true } })).toBe(true);
    const row = await mustGet(driver, job.id);
    expect(row).toMatchObject({
      state: 'completed',
      result: { ok: true },
      finishedAt: T0 + 5,
      updatedAt: T0 + 5,
    });
    expect(row).not.toHaveProperty('claimedBy');
    expect(row).not.toHaveProperty('visibleAt');
    expect(await driver.ack(fence)).toBe(false);
  });

  it('a lapsed lease nobody re-claimed still lands its settle', async () => {
    const { driver, clock } = setup();
    const { fence } = await running(driver);
    await clock.advance(VT * 2);
    expect(await driver.ack(fence)).toBe(true);
  });

  it('a fence with another worker or claim lands nothing', async () => {
    const { driver } = setup();
    const { job, fence } = await running(driver);
    expect(await driver.ack({ ...fence, workerId: 'w9' })).toBe(false);
    expect(await driver.nack({ ...fence, claim: 7 }, { error: ERROR })).toBe(false);
    expect(await driver.extend({ ...fence, jobId: randomUUID() }, VT)).toBe(false);
    expect((await mustGet(driver, job.id)).state).toBe('running');
  });

  it('nack with attempts left goes delayed at a future retryAt, or ready now without one', async () => {
    const { driver, clock } = setup();
    const { job, fence, queue } = await running(driver);
    expect(await driver.nack(fence, { error: ERROR, retryAt: T0 + 500 })).toBe(true);
    expect(await mustGet(driver, job.id)).toMatchObject({
      state: 'delayed',
      runAt: T0 + 500,
      lastError: ERROR,
    });
    await clock.advance(500);
    const again = await claimOne(driver, queue);
    expect(await driver.nack(fenceOf(again), { error: { message: 'm' }, retryAt: T0 })).toBe(true);
    expect(await mustGet(driver, job.id)).toMatchObject({
      state: 'ready',
      runAt: T0 + 500,
      lastError: { message: 'm' },
    });
  });

  it('nack settles dead when attempts run out or final, failed with deadLetter false', async () => {
    const { driver } = setup();
    const last = await running(driver, { maxAttempts: 1 });
    await driver.nack(last.fence, { error: ERROR });
    expect(await mustGet(driver, last.job.id)).toMatchObject({ state: 'dead', finishedAt: T0 });
    const final = await running(driver);
    await driver.nack(final.fence, { error: ERROR, final: true, deadLetter: false });
    expect((await mustGet(driver, final.job.id)).state).toBe('failed');
  });

  it('suspend parks the row until a time, waitFor set or removed; extend renews the lease', async () => {
    const { driver, clock } = setup();
    const { job, fence } = await running(driver);
    await clock.advance(10);
    expect(await driver.extend(fence, 1_000)).toBe(true);
    expect(await mustGet(driver, job.id)).toMatchObject({
      visibleAt: T0 + 1_010,
      claimedBy: 'w1',
      updatedAt: T0 + 10,
    });
    expect(await driver.suspend(fence, { until: T0 + 100, waitFor: 'paid' })).toBe(true);
    const parked = await mustGet(driver, job.id);
    expect(parked).toMatchObject({ state: 'suspended', runAt: T0 + 100, waitFor: 'paid' });
    expect(parked).not.toHaveProperty('claimedBy');
    await clock.advance(90);
    expect((await mustGet(driver, job.id)).state).toBe('ready');
  });

  it('ackMany and nackMany settle each item in order and answer landed per item', async () => {
    const { driver } = setup();
    const a = await running(driver);
    const b = await running(driver);
    expect(
      await driver.ackMany([{ fence: a.fence, result: 1 }, { fence: a.fence }, { fence: b.fence }]),
    ).toEqual([true, false, true]);
    expect((await mustGet(driver, a.job.id)).result).toBe(1);
    const c = await running(driver);
    expect(
      await driver.nackMany([
        { fence: c.fence, error: ERROR },
        { fence: a.fence, error: ERROR },
      ]),
    ).toEqual([true, false]);
    expect((await mustGet(driver, c.job.id)).state).toBe('ready');
  });
});

describe('memory operator calls', () => {
  it('cancel settles a live row; a terminal one is JOB_NOT_CANCELLABLE with its state', async () => {
    const { driver } = setup();
    const { job, fence } = await running(driver);
    const cancelled = await driver.cancel(job.id);
    expect(cancelled).toMatchObject({ state: 'cancelled', finishedAt: T0 });
    expect(cancelled).not.toHaveProperty('claimedBy');
    expect(await driver.ack(fence)).toBe(false);
    await refusal(driver.cancel(job.id), 'JOB_NOT_CANCELLABLE', {
      jobId: job.id,
      state: 'cancelled',
    });
    await refusal(driver.cancel(randomUUID()), 'JOB_NOT_FOUND');
  });

  it('promote readies a delayed row not yet due; anything else is JOB_NOT_PROMOTABLE', async () => {
    const { driver, clock } = setup();
    const { id } = await driver.enqueue({ name: 'x', runAt: T0 + 1_000 });
    await clock.advance(10);
    expect(await driver.promote(id)).toMatchObject({ state: 'ready', runAt: T0 + 10 });
    await refusal(driver.promote(id), 'JOB_NOT_PROMOTABLE', { jobId: id, state: 'ready' });
    const due = await driver.enqueue({ name: 'x', runAt: T0 + 20 });
    await clock.advance(10);
    await refusal(driver.promote(due.id), 'JOB_NOT_PROMOTABLE', { jobId: due.id, state: 'ready' });
  });

  it('requeue answers its refusals in order: not found, not requeueable, duplicate key, step invalid', async () => {
    const { driver, hooks } = setup();
    let calls = 0;
    hooks.afterRequeueCheck = async () => {
      calls += 1;
    };
    await refusal(driver.requeue(randomUUID()), 'JOB_NOT_FOUND');
    const live = await driver.enqueue({ name: 'k', idempotencyKey: 'key' });
    await refusal(driver.requeue(live.id), 'JOB_NOT_REQUEUEABLE', {
      jobId: live.id,
      state: 'ready',
    });
    await driver.cancel(live.id);
    const holder = await driver.enqueue({ name: 'k', idempotencyKey: 'key' });
    await refusal(driver.requeue(live.id), 'JOB_DUPLICATE', {
      name: 'k',
      idempotencyKey: 'key',
      existingId: holder.id,
    });
    await driver.cancel(holder.id);
    await refusal(driver.requeue(live.id, { fromStep: 'nope' }), 'STEP_INVALID', {
      jobId: live.id,
      runId: live.runId,
      step: 'nope',
    });
    expect(calls).toBe(0);
  });

  it('requeue readies the row with attempts 0, lastError, claim and runId kept', async () => {
    const { driver, clock } = setup();
    const { job, fence } = await running(driver, { maxAttempts: 1 });
    await driver.nack(fence, { error: ERROR });
    await clock.advance(50);
    const again = await driver.requeue(job.id);
    expect(again).toMatchObject({
      state: 'ready',
      runAt: T0 + 50,
      attempts: 0,
      claim: 1,
      runId: job.runId,
      lastError: ERROR,
    });
    expect(again).not.toHaveProperty('finishedAt');
  });

  it('requeue fromStep drops that step and every later one, keeping earlier ones', async () => {
    const { driver } = setup();
    const { job, fence } = await running(driver);
    for (const name of ['a', 'b', 'c']) await driver.steps.put(step(job.runId, name), fence);
    await driver.steps.put({ ...step(job.runId, 'a'), output: 'again' }, fence);
    await driver.nack(fence, { error: ERROR, final: true });
    await driver.requeue(job.id, { fromStep: 'b' });
    expect((await driver.steps.list(job.runId)).map((s) => [s.name, s.output])).toEqual([
      ['a', 'again'],
    ]);
  });

  it('a requeue that loses its race in the seam answers JOB_NOT_REQUEUEABLE live', async () => {
    const { driver, hooks } = setup();
    const { id } = await driver.enqueue({ name: 'x' });
    await driver.cancel(id);
    let inner: unknown;
    hooks.afterRequeueCheck = async () => {
      hooks.afterRequeueCheck = undefined;
      inner = await driver.requeue(id);
    };
    await refusal(driver.requeue(id), 'JOB_NOT_REQUEUEABLE', { jobId: id, state: 'live' });
    expect(inner).toMatchObject({ id, state: 'ready' });
    await refusal(driver.requeue(id), 'JOB_NOT_REQUEUEABLE', { jobId: id, state: 'ready' });
  });

  it('a key taken by a new live row during the requeue seam answers JOB_DUPLICATE, changing nothing', async () => {
    const { driver, hooks } = setup();
    const { id } = await driver.enqueue({ name: 'k', idempotencyKey: 'key' });
    await driver.cancel(id);
    let holder: string | undefined;
    hooks.afterRequeueCheck = async () => {
      holder = (await driver.enqueue({ name: 'k', idempotencyKey: 'key' })).id;
    };
    const error = await refusal(driver.requeue(id), 'JOB_DUPLICATE');
    expect(error.meta).toMatchObject({ existingId: holder });
    expect((await mustGet(driver, id)).state).toBe('cancelled');
  });

  it('a tenantId that is not the row tenant reads as an id nobody queued', async () => {
    const { driver } = setup();
    const { id } = await driver.enqueue({ name: 'x', tenantId: 'acme' });
    const plain = await driver.enqueue({ name: 'x' });
    expect(await driver.get(id, { tenantId: 'other' })).toBeUndefined();
    expect(await driver.get(plain.id, { tenantId: 'acme' })).toBeUndefined();
    expect((await driver.get(id, { tenantId: 'acme' }))?.id).toBe(id);
    await refusal(driver.cancel(id, { tenantId: 'other' }), 'JOB_NOT_FOUND', { jobId: id });
    await refusal(driver.promote(id, { tenantId: 'other' }), 'JOB_NOT_FOUND', { jobId: id });
    await refusal(driver.requeue(id, { tenantId: 'other' }), 'JOB_NOT_FOUND', { jobId: id });
    expect((await driver.get(id))?.id).toBe(id);
  });
});
