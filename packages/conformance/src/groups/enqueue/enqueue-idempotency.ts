import type { Driver } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import {
  enqueueAndClaim,
  fenceOf,
  listAll,
  mustGet,
  type SettledState,
  settleTo,
} from '../fixtures/index.js';

/** A live holder of key `k` for `sync`, brought to `state` (ready, delayed, running, suspended). */
async function liveHolder(
  driver: Driver,
  t0: number,
  state: 'ready' | 'delayed' | 'running' | 'suspended',
): Promise<{ id: string; runId: string }> {
  const request = { name: 'sync', idempotencyKey: 'k' } as const;
  if (state === 'ready') return driver.enqueue(request);
  if (state === 'delayed') return driver.enqueue({ ...request, runAt: t0 + 60_000 });
  const { job } = await enqueueAndClaim(driver, request);
  if (state === 'suspended') {
    expect(await driver.suspend(fenceOf(job), { until: t0 + 60_000 })).toBe(true);
  }
  return { id: job.id, runId: job.runId };
}

const liveCases: KitCase[] = (['ready', 'delayed', 'running', 'suspended'] as const).map(
  (state) => ({
    title: `enqueue with an idempotency key held by a ${state} job answers that job, deduped, and changes nothing`,
    run: async ({ driver, clock, t0 }) => {
      const holder = await liveHolder(driver, t0, state);
      const before = await mustGet(driver, holder.id);
      expect(before.state).toBe(state);
      await clock.advance(10);
      const again = await driver.enqueue({ name: 'sync', idempotencyKey: 'k', payload: { v: 2 } });
      expect(again).toEqual({ id: holder.id, runId: holder.runId, deduped: true });
      expect(await mustGet(driver, holder.id)).toStrictEqual(before);
      expect(await listAll(driver)).toHaveLength(1);
    },
  }),
);

const settledCases: KitCase[] = (['completed', 'failed', 'dead', 'cancelled'] as const).map(
  (state: SettledState) => ({
    title: `an idempotency key is free again once its holder is ${state}: the next enqueue makes a new job`,
    run: async ({ driver, clock, t0 }) => {
      const holder = await driver.enqueue({ name: 'sync', idempotencyKey: 'k' });
      await settleTo(driver, holder.id, state);
      const settled = await mustGet(driver, holder.id);
      await clock.advance(10);
      const fresh = await driver.enqueue({
        name: 'sync',
        idempotencyKey: 'k',
        onConflict: 'error',
      });
      expect(fresh.deduped).toBe(false);
      expect(fresh.id).not.toBe(holder.id);
      expect(await mustGet(driver, fresh.id)).toMatchObject({
        state: 'ready',
        idempotencyKey: 'k',
        createdAt: t0 + 10,
      });
      expect(await mustGet(driver, holder.id)).toStrictEqual(settled);
      // The new job is the live holder now.
      const third = await driver.enqueue({ name: 'sync', idempotencyKey: 'k' });
      expect(third).toEqual({ id: fresh.id, runId: fresh.runId, deduped: true });
      expect(await listAll(driver)).toHaveLength(2);
    },
  }),
);

const namespaceCases: KitCase[] = [
  {
    title: 'the idempotency namespace includes the job name: the same key under another name lands',
    run: async ({ driver }) => {
      const a = await driver.enqueue({ name: 'a', idempotencyKey: 'k' });
      const b = await driver.enqueue({ name: 'b', idempotencyKey: 'k' });
      expect(b.deduped).toBe(false);
      expect(b.id).not.toBe(a.id);
      expect(await driver.enqueue({ name: 'b', idempotencyKey: 'k' })).toEqual({
        ...b,
        deduped: true,
      });
      expect(await listAll(driver)).toHaveLength(2);
    },
  },
  {
    title:
      'the idempotency namespace includes the tenant: the same name and key in another tenant, or in none, lands',
    run: async ({ driver }) => {
      const one = await driver.enqueue({ name: 'sync', idempotencyKey: 'k', tenantId: 't1' });
      const two = await driver.enqueue({ name: 'sync', idempotencyKey: 'k', tenantId: 't2' });
      const none = await driver.enqueue({ name: 'sync', idempotencyKey: 'k' });
      expect([one.deduped, two.deduped, none.deduped]).toEqual([false, false, false]);
      expect(new Set([one.id, two.id, none.id]).size).toBe(3);
      const again = await driver.enqueue({ name: 'sync', idempotencyKey: 'k', tenantId: 't1' });
      expect(again).toEqual({ ...one, deduped: true });
      expect(await driver.enqueue({ name: 'sync', idempotencyKey: 'k' })).toEqual({
        ...none,
        deduped: true,
      });
      expect(await listAll(driver)).toHaveLength(3);
    },
  },
  {
    title:
      'the idempotency namespace does not include the queue: another queue dedupes to the holder',
    run: async ({ driver }) => {
      const holder = await driver.enqueue({ name: 'sync', queue: 'q1', idempotencyKey: 'k' });
      const again = await driver.enqueue({ name: 'sync', queue: 'q2', idempotencyKey: 'k' });
      expect(again).toEqual({ ...holder, deduped: true });
      expect((await mustGet(driver, holder.id)).queue).toBe('q1');
      expect(await listAll(driver)).toHaveLength(1);
    },
  },
  {
    title:
      "onConflict 'error' against a live holder throws JOB_DUPLICATE with meta.existingId and writes nothing",
    run: async ({ driver }) => {
      const holder = await driver.enqueue({ name: 'sync', idempotencyKey: 'k' });
      const before = await mustGet(driver, holder.id);
      const error = await expectRefusal(
        driver.enqueue({ name: 'sync', idempotencyKey: 'k', onConflict: 'error', payload: 2 }),
        'JOB_DUPLICATE',
        { name: 'sync', idempotencyKey: 'k', existingId: holder.id },
      );
      expect(error.meta).not.toHaveProperty('tenantId');
      expect(await mustGet(driver, holder.id)).toStrictEqual(before);
      expect(await listAll(driver)).toHaveLength(1);
    },
  },
  {
    title: "onConflict 'error' in a tenant names the tenant in JOB_DUPLICATE's meta",
    run: async ({ driver }) => {
      const holder = await driver.enqueue({ name: 'sync', idempotencyKey: 'k', tenantId: 't1' });
      const error = await expectRefusal(
        driver.enqueue({ name: 'sync', idempotencyKey: 'k', tenantId: 't1', onConflict: 'error' }),
        'JOB_DUPLICATE',
      );
      expect(error.meta).toEqual({
        name: 'sync',
        idempotencyKey: 'k',
        existingId: holder.id,
        tenantId: 't1',
      });
      expect(await listAll(driver)).toHaveLength(1);
    },
  },
];

export const enqueueIdempotencyCases: readonly KitCase[] = [
  ...liveCases,
  ...settledCases,
  ...namespaceCases,
];
