import { randomUUID } from 'node:crypto';
import type { JobRecord } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { claimOne, fenceOf, mustGet, refusal, running, setup, T0, VT } from './support.js';

describe('memory enqueue', () => {
  it('makes a ready row with every default and no optional field set', async () => {
    const { driver } = setup();
    const made = await driver.enqueue({ name: 'mail' });
    expect(made.deduped).toBe(false);
    expect(await mustGet(driver, made.id)).toEqual({
      id: made.id,
      runId: made.runId,
      name: 'mail',
      queue: 'default',
      payload: null,
      state: 'ready',
      priority: 0,
      attempts: 0,
      maxAttempts: 3,
      runAt: T0,
      createdAt: T0,
      updatedAt: T0,
      claim: 0,
    });
  });

  it('stores a future runAt as delayed, which reads ready once due', async () => {
    const { driver, clock } = setup();
    const { id } = await driver.enqueue({ name: 'later', runAt: T0 + 1_000 });
    expect((await mustGet(driver, id)).state).toBe('delayed');
    await clock.advance(1_000);
    expect((await mustGet(driver, id)).state).toBe('ready');
  });

  it('answers records that do not alias its store', async () => {
    const { driver } = setup();
    const { id } = await driver.enqueue({ name: 'x', payload: { list: [1] } });
    const first = (await mustGet(driver, id)) as JobRecord & { payload: { list: number[] } };
    first.payload.list.push(2);
    expect((await mustGet(driver, id)).payload).toEqual({ list: [1] });
  });

  it('keeps a claimed payload, an acked result and a nack error apart from the caller and the store', async () => {
    const { driver } = setup();
    const { id } = await driver.enqueue({
      name: 'x',
      payload: { list: [1], ['__proto__']: 'data' },
    });
    const job = await claimOne(driver);
    (job.payload as { list: number[] }).list.push(2);
    const result = { sent: [1] };
    await driver.ack(fenceOf(job), { result });
    result.sent.push(2);
    const stored = await mustGet(driver, id);
    expect(stored.payload).toStrictEqual(JSON.parse('{"list":[1],"__proto__":"data"}'));
    expect(stored.result).toEqual({ sent: [1] });

    const other = await running(driver);
    const error = { message: 'boom', code: 'E_X' };
    await driver.nackMany([{ fence: other.fence, error, final: true }]);
    error.message = 'changed';
    expect((await mustGet(driver, other.job.id)).lastError).toEqual({
      code: 'E_X',
      message: 'boom',
    });
  });

  it('answers a caller id that exists with that job, deduped, in any state, without the seam', async () => {
    const { driver, hooks } = setup();
    let calls = 0;
    hooks.afterEnqueueConflict = async () => {
      calls += 1;
    };
    const id = randomUUID();
    const made = await driver.enqueue({ id, name: 'outbox', idempotencyKey: 'k', tenantId: 't' });
    await driver.cancel(id);
    expect(await driver.enqueue({ id, name: 'other', tenantId: 't' })).toEqual({
      ...made,
      deduped: true,
    });
    expect(calls).toBe(0);
  });

  it('dedupes a key among live rows per (name, tenant), and a settled holder frees it', async () => {
    const { driver } = setup();
    const holder = await driver.enqueue({ name: 'mail', idempotencyKey: 'k' });
    expect(await driver.enqueue({ name: 'mail', idempotencyKey: 'k' })).toEqual({
      ...holder,
      deduped: true,
    });
    expect(
      (await driver.enqueue({ name: 'mail', idempotencyKey: 'k', tenantId: 't' })).deduped,
    ).toBe(false);
    expect((await driver.enqueue({ name: 'sms', idempotencyKey: 'k' })).deduped).toBe(false);
    await refusal(
      driver.enqueue({ name: 'mail', idempotencyKey: 'k', onConflict: 'error' }),
      'JOB_DUPLICATE',
      {
        name: 'mail',
        idempotencyKey: 'k',
        existingId: holder.id,
      },
    );
    await driver.cancel(holder.id);
    expect((await driver.enqueue({ name: 'mail', idempotencyKey: 'k' })).deduped).toBe(false);
  });

  it('calls afterEnqueueConflict once for a live holder and then answers it', async () => {
    const { driver, hooks } = setup();
    const holder = await driver.enqueue({ name: 'sync', idempotencyKey: 'k' });
    let calls = 0;
    hooks.afterEnqueueConflict = async () => {
      calls += 1;
    };
    expect(await driver.enqueue({ name: 'sync', idempotencyKey: 'k' })).toEqual({
      ...holder,
      deduped: true,
    });
    expect(calls).toBe(1);
  });

  it('one miss then landed: a holder settled in the seam lets the retried insert land', async () => {
    const { driver, hooks } = setup();
    const holder = await driver.enqueue({ name: 'sync', idempotencyKey: 'k' });
    let calls = 0;
    hooks.afterEnqueueConflict = async () => {
      calls += 1;
      await driver.cancel(holder.id);
    };
    const landed = await driver.enqueue({
      name: 'sync',
      idempotencyKey: 'k',
      onConflict: 'error',
      payload: 2,
    });
    expect(calls).toBe(1);
    expect(landed.deduped).toBe(false);
    expect(await mustGet(driver, landed.id)).toMatchObject({ state: 'ready', payload: 2 });
  });

  it('two misses: holders settled in both seams throw DRIVER_UNAVAILABLE naming driver.migrate()', async () => {
    const { driver, hooks } = setup();
    const holder = await driver.enqueue({ name: 'sync', idempotencyKey: 'k' });
    let second: string | undefined;
    let calls = 0;
    hooks.afterEnqueueConflict = async () => {
      calls += 1;
      if (calls === 1) {
        await driver.cancel(holder.id);
        second = (await driver.enqueue({ name: 'sync', idempotencyKey: 'k' })).id;
      } else if (second !== undefined) {
        await driver.cancel(second);
      }
    };
    const error = await refusal(
      driver.enqueue({ name: 'sync', idempotencyKey: 'k', payload: 'third' }),
      'DRIVER_UNAVAILABLE',
      {
        driver: 'memory',
        operation: 'enqueue',
      },
    );
    expect(error.fix).toContain('driver.migrate()');
    expect(calls).toBe(2);
    const rows = (await driver.list({ name: 'sync' })).jobs;
    expect(rows.map((job) => job.state)).toEqual(['cancelled', 'cancelled']);
  });

  it('enqueueMany dedupes later items to earlier ones and lands nothing when one throws', async () => {
    const { driver } = setup();
    const id = randomUUID();
    const answers = await driver.enqueueMany([
      { id, name: 'a', idempotencyKey: 'k' },
      { name: 'a', idempotencyKey: 'k' },
      { id, name: 'b' },
    ]);
    expect(answers.map((answer) => [answer.id, answer.deduped])).toEqual([
      [id, false],
      [id, true],
      [id, true],
    ]);
    const fresh = randomUUID();
    await refusal(
      driver.enqueueMany([
        { id: fresh, name: 'c' },
        { name: 'a', idempotencyKey: 'k', onConflict: 'error' },
      ]),
      'JOB_DUPLICATE',
      { name: 'a', idempotencyKey: 'k', existingId: id },
    );
    expect(await driver.get(fresh)).toBeUndefined();
  });
});

describe('memory claim', () => {
  it('takes rows by priority desc, runAt asc, then insertion order', async () => {
    const { driver, clock } = setup();
    const late = await driver.enqueue({ name: 'j', runAt: T0 - 5 });
    const first = await driver.enqueue({ name: 'j' });
    const second = await driver.enqueue({ name: 'j' });
    const high = await driver.enqueue({ name: 'j', priority: 5 });
    await clock.advance(1);
    const claimed = await driver.claim({
      queues: ['default'],
      limit: 10,
      workerId: 'w',
      visibilityTimeoutMs: VT,
    });
    expect(claimed.map((job) => job.id)).toEqual([high.id, late.id, first.id, second.id]);
  });

  it('marks a claimed row running with claim+1, attempts+1, claimedBy and visibleAt', async () => {
    const { driver } = setup();
    const { job } = await running(driver);
    expect(job).toMatchObject({
      state: 'running',
      claim: 1,
      attempts: 1,
      claimedBy: 'w1',
      visibleAt: T0 + VT,
    });
    expect(job.resumed).toBe(false);
    const { resumed: _resumed, ...record } = job;
    expect(await mustGet(driver, job.id)).toEqual(record);
  });

  it('re-claims a lapsed lease with attempts left, and the old fence no longer lands', async () => {
    const { driver, clock } = setup();
    const { job, fence, queue } = await running(driver);
    await clock.advance(VT);
    const again = await claimOne(driver, queue, 'w2');
    expect(again).toMatchObject({ id: job.id, claim: 2, attempts: 2, claimedBy: 'w2' });
    expect(await driver.ack(fence)).toBe(false);
    expect(await driver.ack(fenceOf(again))).toBe(true);
  });

  it('resumes a suspended row without counting an attempt, clearing waitFor', async () => {
    const { driver, clock } = setup();
    const { fence, queue } = await running(driver);
    await driver.suspend(fence, { until: T0 + 100, waitFor: 'paid' });
    await clock.advance(100);
    const resumed = await claimOne(driver, queue);
    expect(resumed).toMatchObject({ attempts: 1, claim: 2, resumed: true });
    expect(resumed).not.toHaveProperty('waitFor');
  });

  it('buries a lapsed final attempt dead, or failed with dropExhausted, and reports it once', async () => {
    const { driver, clock } = setup();
    const dead = await running(driver, { name: 'keep', queue: 'q', maxAttempts: 1 });
    await driver.enqueue({ name: 'drop', queue: 'q', maxAttempts: 1 });
    const drop = await claimOne(driver, 'q');
    await clock.advance(VT);
    const reported: JobRecord[][] = [];
    const claimed = await driver.claim({
      queues: ['q'],
      limit: 5,
      workerId: 'w2',
      visibilityTimeoutMs: VT,
      dropExhausted: ['drop'],
      onExhausted: (rows) => reported.push([...rows]),
    });
    expect(claimed).toEqual([]);
    expect(reported).toHaveLength(1);
    const lapsed = {
      code: 'LEASE_LAPSED',
      message: 'the lease lapsed on the final attempt and no attempts remain',
    };
    expect(reported[0]?.map((row) => [row.id, row.state, row.lastError])).toEqual([
      [dead.job.id, 'dead', lapsed],
      [drop.id, 'failed', lapsed],
    ]);
    const row = await mustGet(driver, dead.job.id);
    expect(row).toMatchObject({ finishedAt: T0 + VT, updatedAt: T0 + VT });
    expect(row).not.toHaveProperty('claimedBy');
    expect(row).not.toHaveProperty('visibleAt');
    expect(await driver.ack(dead.fence)).toBe(false);
  });

  it('counts claimed and buried rows against separate limits', async () => {
    const { driver, clock } = setup();
    await driver.enqueueMany([
      { name: 'x', queue: 'q', maxAttempts: 1 },
      { name: 'x', queue: 'q', maxAttempts: 1 },
    ]);
    await driver.claim({ queues: ['q'], limit: 2, workerId: 'w', visibilityTimeoutMs: VT });
    await clock.advance(VT);
    const fresh = await driver.enqueue({ name: 'y', queue: 'q' });
    let buried = 0;
    const claimed = await driver.claim({
      queues: ['q'],
      limit: 1,
      workerId: 'w',
      visibilityTimeoutMs: VT,
      onExhausted: (rows) => {
        buried += rows.length;
      },
    });
    expect(claimed.map((job) => job.id)).toEqual([fresh.id]);
    expect(buried).toBe(1);
  });
});
