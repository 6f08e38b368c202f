import { randomUUID } from 'node:crypto';
import { type EnqueueRequest, MAX_ENQUEUE_BATCH } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import { LEASE_MS, listAll, mustGet, nth, settleTo, WORKER } from '../fixtures/index.js';

export const enqueueBatchCases: readonly KitCase[] = [
  {
    title: 'enqueueMany answers each request in order, with the same records enqueue would make',
    run: async ({ driver, t0 }) => {
      const id = randomUUID();
      const answers = await driver.enqueueMany([
        { name: 'a' },
        { name: 'b', queue: 'other', priority: 4, runAt: t0 + 1_000 },
        { id, name: 'c', payload: { n: 3 }, idempotencyKey: 'c-1' },
      ]);
      expect(answers).toHaveLength(3);
      expect(answers.map((answer) => answer.deduped)).toEqual([false, false, false]);
      expect(nth(answers, 2).id).toBe(id);
      expect(new Set(answers.map((answer) => answer.id)).size).toBe(3);
      const records = await Promise.all(answers.map((answer) => mustGet(driver, answer.id)));
      const [a, b, c] = [nth(records, 0), nth(records, 1), nth(records, 2)];
      expect(a).toMatchObject({ name: 'a', queue: 'default', state: 'ready', runAt: t0 });
      expect(b).toMatchObject({
        name: 'b',
        queue: 'other',
        state: 'delayed',
        priority: 4,
        runAt: t0 + 1_000,
      });
      expect(c).toMatchObject({ id, name: 'c', payload: { n: 3 }, idempotencyKey: 'c-1' });
      for (const [index, record] of records.entries()) {
        expect(record.runId).toBe(nth(answers, index).runId);
        expect(record).toMatchObject({ attempts: 0, claim: 0, createdAt: t0, updatedAt: t0 });
      }
    },
  },
  {
    title:
      "a batch's rows take request order as insertion order, also items reusing deleted jobs' ids: list pages and claims see that order",
    run: async ({ driver }) => {
      const first = randomUUID();
      const third = randomUUID();
      for (const id of [first, third]) {
        await driver.enqueue({ id, name: 'gone', queue: 'batch-order' });
        await driver.delete(id);
      }
      await driver.enqueueMany([
        { id: first, name: 'a', queue: 'batch-order' },
        { name: 'b', queue: 'batch-order' },
        { id: third, name: 'c', queue: 'batch-order' },
        { name: 'd', queue: 'batch-order' },
      ]);
      // One instant, one priority: only insertion order tells the rows apart.
      const listed = (await driver.list({ queue: 'batch-order', limit: 10 })).jobs;
      expect(listed.map((job) => job.name)).toEqual(['d', 'c', 'b', 'a']);
      const claimed = await driver.claim({
        queues: ['batch-order'],
        workerId: WORKER,
        visibilityTimeoutMs: LEASE_MS,
        limit: 4,
      });
      expect(claimed.map((job) => job.name)).toEqual(['a', 'b', 'c', 'd']);
    },
  },
  {
    title: 'enqueueMany of an empty batch answers [] and writes nothing',
    run: async ({ driver }) => {
      expect(await driver.enqueueMany([])).toEqual([]);
      expect(await listAll(driver)).toEqual([]);
    },
  },
  {
    title: "a later batch item with an earlier item's idempotency key dedupes to it",
    run: async ({ driver }) => {
      const answers = await driver.enqueueMany([
        { name: 'sync', idempotencyKey: 'k', payload: 1 },
        { name: 'sync', idempotencyKey: 'j' },
        { name: 'sync', idempotencyKey: 'k', payload: 2 },
      ]);
      const first = nth(answers, 0);
      expect(first.deduped).toBe(false);
      expect(nth(answers, 1).deduped).toBe(false);
      expect(nth(answers, 2)).toEqual({ ...first, deduped: true });
      expect(await listAll(driver)).toHaveLength(2);
      expect((await mustGet(driver, first.id)).payload).toBe(1);
    },
  },
  {
    title: "a later batch item with an earlier item's caller id dedupes to it",
    run: async ({ driver }) => {
      const id = randomUUID();
      const answers = await driver.enqueueMany([
        { id, name: 'outbox', payload: 1 },
        { id: id.toUpperCase(), name: 'outbox', payload: 2 },
      ]);
      const first = nth(answers, 0);
      expect(first).toEqual({ id, runId: first.runId, deduped: false });
      expect(nth(answers, 1)).toEqual({ id, runId: first.runId, deduped: true });
      expect((await mustGet(driver, id)).payload).toBe(1);
      expect(await listAll(driver)).toHaveLength(1);
    },
  },
  {
    title: 'a batch item whose key or caller id an existing job holds dedupes to that job',
    run: async ({ driver }) => {
      const holder = await driver.enqueue({ name: 'sync', idempotencyKey: 'k' });
      const id = randomUUID();
      const published = await driver.enqueue({ id, name: 'outbox', queue: 'outbox' });
      await settleTo(driver, id, 'completed');
      const answers = await driver.enqueueMany([
        { name: 'sync', idempotencyKey: 'k' },
        { name: 'fresh' },
        { id, name: 'outbox', queue: 'outbox' },
      ]);
      expect(nth(answers, 0)).toEqual({ ...holder, deduped: true });
      expect(nth(answers, 1).deduped).toBe(false);
      expect(nth(answers, 2)).toEqual({ ...published, deduped: true });
      expect(await listAll(driver)).toHaveLength(3);
    },
  },
  {
    title: 'a batch item with a key whose holder settled lands a new job',
    run: async ({ driver }) => {
      const holder = await driver.enqueue({ name: 'sync', idempotencyKey: 'k' });
      await settleTo(driver, holder.id, 'completed');
      const fresh = nth(await driver.enqueueMany([{ name: 'sync', idempotencyKey: 'k' }]), 0);
      expect(fresh.deduped).toBe(false);
      expect(fresh.id).not.toBe(holder.id);
      expect(await mustGet(driver, fresh.id)).toMatchObject({ state: 'ready' });
    },
  },
  {
    title:
      'enqueueMany with an invalid item throws JOB_INVALID naming meta.index and meta.field, and nothing lands',
    run: async ({ driver }) => {
      await expectRefusal(
        driver.enqueueMany([{ name: 'ok' }, { name: 'ok-too' }, { name: '' }]),
        'JOB_INVALID',
        { field: 'name', index: 2 },
      );
      await expectRefusal(
        driver.enqueueMany([{ name: 'ok' }, { name: 'j', runAt: Number.NaN }]),
        'JOB_INVALID',
        { field: 'runAt', index: 1 },
      );
      expect(await listAll(driver)).toEqual([]);
    },
  },
  {
    title:
      "a batch item meeting a live holder with onConflict 'error' throws JOB_DUPLICATE and nothing from the batch lands",
    run: async ({ driver }) => {
      const holder = await driver.enqueue({ name: 'sync', idempotencyKey: 'k' });
      const id = randomUUID();
      await expectRefusal(
        driver.enqueueMany([
          { id, name: 'first' },
          { name: 'second', idempotencyKey: 'other' },
          { name: 'sync', idempotencyKey: 'k', onConflict: 'error' },
        ]),
        'JOB_DUPLICATE',
        { name: 'sync', idempotencyKey: 'k', existingId: holder.id },
      );
      expect(await driver.get(id)).toBeUndefined();
      expect((await listAll(driver)).map((job) => job.id)).toEqual([holder.id]);
      // The refused batch took no key: 'other' is still free.
      const free = await driver.enqueueMany([{ name: 'second', idempotencyKey: 'other' }]);
      expect(nth(free, 0).deduped).toBe(false);
    },
  },
  {
    title:
      "a batch item meeting an earlier item's key with onConflict 'error' throws JOB_DUPLICATE naming that item, and nothing lands",
    run: async ({ driver }) => {
      const id = randomUUID();
      await expectRefusal(
        driver.enqueueMany([
          { id, name: 'sync', idempotencyKey: 'k' },
          { name: 'sync', idempotencyKey: 'k', onConflict: 'error' },
        ]),
        'JOB_DUPLICATE',
        { name: 'sync', idempotencyKey: 'k', existingId: id },
      );
      expect(await listAll(driver)).toEqual([]);
    },
  },
  {
    title: `enqueueMany of more than ${MAX_ENQUEUE_BATCH} requests throws JOB_INVALID naming requests`,
    run: async ({ driver }) => {
      const requests: EnqueueRequest[] = Array.from({ length: MAX_ENQUEUE_BATCH + 1 }, () => ({
        name: 'bulk',
      }));
      await expectRefusal(driver.enqueueMany(requests), 'JOB_INVALID', { field: 'requests' });
      expect(await listAll(driver)).toEqual([]);
    },
  },
];
