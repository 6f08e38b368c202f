import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase, KitGroup } from '../../kit.js';
import { jobIn, LATER, LEASE_MS, mustGet, WORKER } from '../fixtures/index.js';
import { cancelCases } from './operator-cancel.js';
import { promoteCases } from './operator-promote.js';

const getCases: readonly KitCase[] = [
  {
    title: 'get answers the record as enqueued, with every unset optional field absent',
    run: async ({ driver, t0 }) => {
      const { id, runId } = await driver.enqueue({ name: 'mail.send', payload: { to: 'a@b.c' } });
      const job = await mustGet(driver, id);
      expect(job).toStrictEqual({
        id,
        runId,
        name: 'mail.send',
        queue: 'default',
        payload: { to: 'a@b.c' },
        state: 'ready',
        priority: 0,
        attempts: 0,
        maxAttempts: 3,
        runAt: t0,
        createdAt: t0,
        updatedAt: t0,
        claim: 0,
      });
    },
  },
  {
    title: 'get reads a delayed job as delayed until its runAt, then as ready',
    run: async ({ driver, clock, t0 }) => {
      const { id } = await driver.enqueue({ name: 'kit.job', runAt: t0 + 1_000 });
      expect((await mustGet(driver, id)).state).toBe('delayed');
      await clock.advance(999);
      expect((await mustGet(driver, id)).state).toBe('delayed');
      await clock.advance(1);
      const due = await mustGet(driver, id);
      expect(due.state).toBe('ready');
      expect(due.runAt).toBe(t0 + 1_000);
      expect(due.updatedAt).toBe(t0);
    },
  },
  {
    title: 'get reads a suspended job as suspended until its until, then as ready',
    run: async ({ driver, clock, t0 }) => {
      const made = await jobIn(driver, 'suspended', {}, { waitFor: 'order.paid' });
      const parked = await mustGet(driver, made.id);
      expect(parked.state).toBe('suspended');
      expect(parked.runAt).toBe(t0 + LATER);
      expect(parked.waitFor).toBe('order.paid');
      expect(parked).not.toHaveProperty('claimedBy');
      expect(parked).not.toHaveProperty('visibleAt');
      await clock.advance(LATER - 1);
      expect((await mustGet(driver, made.id)).state).toBe('suspended');
      await clock.advance(1);
      const due = await mustGet(driver, made.id);
      expect(due.state).toBe('ready');
      expect(due.attempts).toBe(1);
    },
  },
  {
    title: 'get reads a claimed job as running with its claimedBy and visibleAt',
    run: async ({ driver, clock, t0 }) => {
      await clock.advance(5);
      const made = await jobIn(driver, 'running');
      const job = await mustGet(driver, made.id);
      expect(job.state).toBe('running');
      expect(job.claimedBy).toBe(WORKER);
      expect(job.visibleAt).toBe(t0 + 5 + LEASE_MS);
      expect(job.attempts).toBe(1);
      expect(job.claim).toBe(1);
    },
  },
  {
    title: 'get of an id nobody queued answers undefined',
    run: async ({ driver }) => {
      await driver.enqueue({ name: 'kit.job' });
      expect(await driver.get(randomUUID())).toBeUndefined();
    },
  },
  {
    title: 'get finds a job by its id written in upper case',
    run: async ({ driver }) => {
      const id = randomUUID();
      await driver.enqueue({ name: 'kit.job', id });
      expect((await mustGet(driver, id.toUpperCase())).id).toBe(id);
    },
  },
  {
    title: 'get, cancel, promote and requeue of an id that is not a uuid answer JOB_INVALID',
    run: async ({ driver }) => {
      const meta = { field: 'id', reason: 'is not a uuid' };
      await expectRefusal(driver.get('job-1'), 'JOB_INVALID', meta);
      await expectRefusal(driver.cancel('job-1'), 'JOB_INVALID', meta);
      await expectRefusal(driver.promote(''), 'JOB_INVALID', meta);
      await expectRefusal(driver.requeue('1234'), 'JOB_INVALID', meta);
    },
  },
  {
    title: 'cancel and promote of an id nobody queued answer JOB_NOT_FOUND',
    run: async ({ driver }) => {
      await driver.enqueue({ name: 'kit.job', runAt: driver.clock.now() + LATER });
      const id = randomUUID();
      const cancel = await expectRefusal(driver.cancel(id), 'JOB_NOT_FOUND');
      expect(cancel.meta).toEqual({ jobId: id });
      const promote = await expectRefusal(driver.promote(id), 'JOB_NOT_FOUND');
      expect(promote.meta).toEqual({ jobId: id });
    },
  },
];

export const operatorGroup: KitGroup = {
  name: 'operator',
  cases: [...getCases, ...cancelCases, ...promoteCases],
};
