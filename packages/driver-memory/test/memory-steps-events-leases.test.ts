import { randomUUID } from 'node:crypto';
import type { StepRecord } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { claimOne, fenceOf, mustGet, refusal, running, setup, T0, VT } from './support.js';

const step = (runId: string, name: string, extra: Partial<StepRecord> = {}): StepRecord => ({
  runId,
  name,
  status: 'completed',
  attempts: 1,
  startedAt: T0,
  updatedAt: T0,
  ...extra,
});

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('memory steps', () => {
  it('upserts by (runId, name), keeping the first write order', async () => {
    const { driver } = setup();
    const { job, fence } = await running(driver);
    await driver.steps.put(step(job.runId, 'b'), fence);
    await driver.steps.put(step(job.runId, 'a'), fence);
    await driver.steps.put(step(job.runId, 'b', { output: 2, attempts: 2 }), fence);
    expect((await driver.steps.list(job.runId)).map((s) => s.name)).toEqual(['b', 'a']);
    expect(await driver.steps.get(job.runId, 'b')).toEqual(
      step(job.runId, 'b', { output: 2, attempts: 2 }),
    );
    expect(await driver.steps.get(randomUUID(), 'b')).toBeUndefined();
    expect(await driver.steps.list(randomUUID())).toEqual([]);
  });

  it('refuses a put whose fence no longer holds with LEASE_LOST, and another run with STEP_INVALID', async () => {
    const { driver, clock } = setup();
    const { job, fence, queue } = await running(driver);
    await refusal(driver.steps.put(step(randomUUID(), 's'), fence), 'STEP_INVALID');
    await clock.advance(VT);
    await claimOne(driver, queue, 'w2');
    await refusal(driver.steps.put(step(job.runId, 's'), fence), 'LEASE_LOST', { ...fence });
    expect(await driver.steps.list(job.runId)).toEqual([]);
  });
});

describe('memory events', () => {
  it('publishes with a ttl, finds the earliest unexpired match, lists and purges', async () => {
    const { driver, clock } = setup();
    const short = await driver.events.publish('paid', { order: 1 }, { ttl: 100 });
    expect(short).toMatchObject({ name: 'paid', publishedAt: T0, expiresAt: T0 + 100 });
    await clock.advance(10);
    const long = await driver.events.publish('paid', { order: 2 });
    expect(long.expiresAt).toBe(T0 + 10 + 7 * 24 * 3_600_000);
    expect((await driver.events.find('paid', { after: T0 }))?.id).toBe(short.id);
    expect((await driver.events.find('paid', { after: T0, match: { order: 2 } }))?.id).toBe(
      long.id,
    );
    expect(await driver.events.find('paid', { after: T0 + 11 })).toBeUndefined();
    await clock.advance(90);
    expect((await driver.events.list()).map((e) => e.id)).toEqual([long.id]);
    expect(await driver.events.find('paid', { after: T0, match: { order: 1 } })).toBeUndefined();
    expect(await driver.events.purgeExpired()).toBe(1);
    expect(await driver.events.purgeExpired()).toBe(0);
  });

  it('a publish makes suspended waiters of that name due at once, still suspended', async () => {
    const { driver, clock } = setup();
    const waiter = await running(driver);
    const other = await running(driver);
    await driver.suspend(waiter.fence, { until: T0 + 60_000, waitFor: 'paid' });
    await driver.suspend(other.fence, { until: T0 + 60_000, waitFor: 'shipped' });
    await clock.advance(5);
    await driver.events.publish('paid', null);
    expect(await mustGet(driver, waiter.job.id)).toMatchObject({
      state: 'ready',
      runAt: T0 + 5,
      updatedAt: T0 + 5,
    });
    expect((await mustGet(driver, other.job.id)).state).toBe('suspended');
    expect((await claimOne(driver, waiter.queue)).resumed).toBe(true);
  });
});

describe('memory leases and slots', () => {
  it('acquires a free, expired or own lease; renews and releases only an unexpired own one', async () => {
    const { driver, clock } = setup();
    const { leases } = driver;
    expect(await leases.acquire('leader', 'a', 100)).toBe(true);
    expect(await leases.acquire('leader', 'b', 100)).toBe(false);
    expect(await leases.acquire('leader', 'a', 100)).toBe(true);
    expect(await leases.renew('leader', 'b', 100)).toBe(false);
    await clock.advance(100);
    expect(await leases.renew('leader', 'a', 100)).toBe(false);
    expect(await leases.release('leader', 'a')).toBe(false);
    expect(await leases.acquire('leader', 'b', 100)).toBe(true);
    expect(await leases.renew('leader', 'b', 100)).toBe(true);
    expect(await leases.release('leader', 'b')).toBe(true);
    expect(await leases.acquire('leader', 'a', 100)).toBe(true);
  });

  it('grants up to limit unexpired slots per key; an expired slot frees itself', async () => {
    const { driver, clock } = setup();
    const { leases } = driver;
    expect(await leases.acquireSlot('k', 2, 'a', 100)).toBe(true);
    expect(await leases.acquireSlot('k', 2, 'b', 200)).toBe(true);
    expect(await leases.acquireSlot('k', 2, 'c', 100)).toBe(false);
    expect(await leases.acquireSlot('k', 2, 'a', 100)).toBe(true);
    await clock.advance(100);
    expect(await leases.renewSlot('k', 'a', 100)).toBe(false);
    expect(await leases.acquireSlot('k', 2, 'c', 100)).toBe(true);
    expect(await leases.releaseSlot('k', 'b')).toBe(true);
    expect(await leases.releaseSlot('k', 'b')).toBe(false);
    expect(await leases.renewSlot('k', 'c', 100)).toBe(true);
  });
});

describe('memory wake and close', () => {
  it('calls onWork once per change per subscribed queue, and never after unsubscribe', async () => {
    const { driver } = setup();
    const calls: string[] = [];
    const subscribe = driver.subscribe;
    if (subscribe === undefined) throw new Error('the memory driver offers wake');
    const stop = await subscribe(['q1', 'q2'], (queue) => calls.push(queue));
    await driver.enqueueMany(['q1', 'q2', 'q1', 'q3'].map((queue) => ({ name: 'x', queue })));
    await tick();
    expect(calls.sort()).toEqual(['q1', 'q2']);
    calls.length = 0;
    const job = await claimOne(driver, 'q1');
    await driver.nack(fenceOf(job), { error: { message: 'again' } });
    await tick();
    expect(calls).toEqual(['q1']);
    await stop();
    await driver.enqueue({ name: 'x', queue: 'q1' });
    await tick();
    expect(calls).toEqual(['q1']);
  });

  it('refuses calls after close with DRIVER_CLOSED', async () => {
    const { driver } = setup();
    await driver.close();
    await refusal(driver.enqueue({ name: 'x' }), 'DRIVER_CLOSED', {
      driver: 'memory',
      operation: 'enqueue',
    });
  });
});
