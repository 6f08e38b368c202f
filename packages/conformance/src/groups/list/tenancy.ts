import { randomUUID } from 'node:crypto';
import type { BerthError, Driver, JobRecord } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase, KitGroup } from '../../kit.js';
import { cursor, ids, jobIn, type MadeJob, mustGet } from '../fixtures/index.js';
import { tenancyIdCases } from './tenancy-ids.js';

type ByIdCall = 'cancel' | 'promote' | 'requeue';

/** The stored state each refused call is tried on: one it would otherwise act on. */
const ACTS_ON: Readonly<Record<ByIdCall, 'ready' | 'delayed' | 'dead'>> = {
  cancel: 'ready',
  promote: 'delayed',
  requeue: 'dead',
};

const call = (driver: Driver, name: ByIdCall, id: string, tenantId?: string): Promise<JobRecord> =>
  driver[name](id, tenantId === undefined ? {} : { tenantId });

/** Asserts a refusal for `id` reads exactly as the refusal for an id nobody queued. */
async function expectUnknown(
  driver: Driver,
  name: ByIdCall,
  made: MadeJob,
  tenantId: string,
): Promise<void> {
  const before = await mustGet(driver, made.id);
  const hidden = await expectRefusal(call(driver, name, made.id, tenantId), 'JOB_NOT_FOUND');
  const nobody = randomUUID();
  const unknown: BerthError = await expectRefusal(
    call(driver, name, nobody, tenantId),
    'JOB_NOT_FOUND',
  );
  expect(hidden.meta).toEqual({ jobId: made.id });
  expect(Object.keys(hidden.meta)).toEqual(Object.keys(unknown.meta));
  expect(hidden.fix).toBe(unknown.fix);
  expect(hidden.message).toBe(unknown.message.replace(nobody, made.id));
  expect(await mustGet(driver, made.id)).toEqual(before);
}

const hiddenCases = (['cancel', 'promote', 'requeue'] as const).flatMap((name): KitCase[] => [
  {
    title: `${name} naming another tenant answers JOB_NOT_FOUND exactly as for an id nobody queued, and changes nothing`,
    run: async ({ driver }) => {
      const made = await jobIn(driver, ACTS_ON[name], { tenantId: 'acme' });
      await expectUnknown(driver, name, made, 'globex');
      expect((await call(driver, name, made.id, 'acme')).tenantId).toBe('acme');
    },
  },
  {
    title: `${name} naming a tenant answers JOB_NOT_FOUND for a row queued without one`,
    run: async ({ driver }) => {
      const made = await jobIn(driver, ACTS_ON[name]);
      await expectUnknown(driver, name, made, 'acme');
      expect((await call(driver, name, made.id)).id).toBe(made.id);
    },
  },
]);

const cases: readonly KitCase[] = [
  {
    title: 'get naming another tenant, or a tenant for an untenanted row, answers undefined',
    run: async ({ driver }) => {
      const tenanted = await jobIn(driver, 'ready', { tenantId: 'acme' });
      const plain = await jobIn(driver, 'ready', { queue: 'plain' });
      expect(await driver.get(tenanted.id, { tenantId: 'globex' })).toBeUndefined();
      expect(await driver.get(plain.id, { tenantId: 'acme' })).toBeUndefined();
      const own = await driver.get(tenanted.id, { tenantId: 'acme' });
      expect(own).toEqual(await mustGet(driver, tenanted.id));
      expect(own?.tenantId).toBe('acme');
      expect(await mustGet(driver, plain.id)).not.toHaveProperty('tenantId');
    },
  },
  {
    title: 'by-id calls without tenantId see any tenant’s row',
    run: async ({ driver }) => {
      const ready = await jobIn(driver, 'ready', { tenantId: 'acme' });
      const delayed = await jobIn(driver, 'delayed', { tenantId: 'globex' });
      const dead = await jobIn(driver, 'dead', { tenantId: 'initech' });
      expect((await mustGet(driver, ready.id)).tenantId).toBe('acme');
      expect((await driver.cancel(ready.id)).state).toBe('cancelled');
      expect((await driver.promote(delayed.id)).state).toBe('ready');
      expect((await driver.requeue(dead.id)).state).toBe('ready');
      expect((await driver.requeue(ready.id)).tenantId).toBe('acme');
    },
  },
  {
    title: 'by-id calls naming the row’s own tenant act on it',
    run: async ({ driver }) => {
      const options = { tenantId: 'acme' };
      const ready = await jobIn(driver, 'ready', options);
      const delayed = await jobIn(driver, 'delayed', options);
      const dead = await jobIn(driver, 'dead', options, { steps: ['fetch'] });
      expect((await driver.cancel(ready.id, options)).state).toBe('cancelled');
      expect((await driver.promote(delayed.id, options)).state).toBe('ready');
      const requeued = await driver.requeue(dead.id, { ...options, fromStep: 'fetch' });
      expect([requeued.state, requeued.tenantId]).toEqual(['ready', 'acme']);
      expect(await driver.steps.list(dead.runId)).toEqual([]);
    },
  },
  {
    title: 'the same idempotency key in two tenants makes two jobs; in one tenant it dedupes',
    run: async ({ driver }) => {
      const key = { name: 'invoice', idempotencyKey: 'inv-1' };
      const acme = await driver.enqueue({ ...key, tenantId: 'acme' });
      const globex = await driver.enqueue({ ...key, tenantId: 'globex' });
      const none = await driver.enqueue(key);
      expect([acme.deduped, globex.deduped, none.deduped]).toEqual([false, false, false]);
      expect(new Set([acme.id, globex.id, none.id]).size).toBe(3);
      expect(await driver.enqueue({ ...key, tenantId: 'acme' })).toEqual({
        ...acme,
        deduped: true,
      });
      expect(await driver.enqueue(key)).toEqual({ ...none, deduped: true });
      const error = await expectRefusal(
        driver.enqueue({ ...key, tenantId: 'globex', onConflict: 'error' }),
        'JOB_DUPLICATE',
      );
      expect(error.meta).toEqual({ ...key, existingId: globex.id, tenantId: 'globex' });
    },
  },
  {
    title:
      'requeue answers JOB_DUPLICATE naming the tenant only for a live holder in the same tenant',
    run: async ({ driver }) => {
      const key = { idempotencyKey: 'inv-2' };
      const acme = await jobIn(driver, 'dead', { ...key, tenantId: 'acme', queue: 'a' });
      const globex = await jobIn(driver, 'dead', { ...key, tenantId: 'globex', queue: 'b' });
      const holder = await driver.enqueue({ name: 'kit.job', ...key, tenantId: 'acme' });
      const error = await expectRefusal(driver.requeue(acme.id), 'JOB_DUPLICATE');
      expect(error.meta).toEqual({
        name: 'kit.job',
        idempotencyKey: 'inv-2',
        existingId: holder.id,
        tenantId: 'acme',
      });
      expect((await driver.requeue(globex.id, { tenantId: 'globex' })).state).toBe('ready');
    },
  },
  {
    title: 'list with tenantId answers only that tenant’s rows, newest first',
    run: async ({ driver, clock }) => {
      const acme = [];
      for (const tenantId of ['acme', 'globex', 'acme', undefined, 'acme']) {
        const { id } = await driver.enqueue({
          name: 'kit.job',
          ...(tenantId === undefined ? {} : { tenantId }),
        });
        if (tenantId === 'acme') acme.unshift(id);
        await clock.advance(1);
      }
      expect(ids((await driver.list({ tenantId: 'acme' })).jobs)).toEqual(acme);
      expect((await driver.list({ tenantId: 'globex' })).jobs.length).toBe(1);
      expect((await driver.list({ tenantId: 'nobody' })).jobs).toEqual([]);
      expect((await driver.list()).jobs.length).toBe(5);
      const page = await driver.list({ tenantId: 'acme', limit: 2 });
      expect(ids(page.jobs)).toEqual(acme.slice(0, 2));
      expect(ids((await driver.list({ tenantId: 'acme', after: cursor(page.next) })).jobs)).toEqual(
        acme.slice(2),
      );
    },
  },
];

export const tenancyGroup: KitGroup = {
  name: 'tenancy',
  cases: [...cases, ...hiddenCases, ...tenancyIdCases],
};
