import { randomUUID } from 'node:crypto';
import { DEFAULT_MAX_ATTEMPTS, DEFAULT_QUEUE, type Json } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase, KitGroup } from '../../kit.js';
import {
  expectAbsent,
  expectFreshUuid,
  freshQueue,
  LEASE_MS,
  listAll,
  mustGet,
  settleTo,
  WORKER,
} from '../fixtures/index.js';
import { enqueueBatchCases } from './enqueue-batch.js';
import { enqueueIdempotencyCases } from './enqueue-idempotency.js';
import { enqueueIdCases } from './enqueue-ids.js';
import { enqueueInvalidCases } from './enqueue-invalid.js';
import { enqueueRetryCases } from './enqueue-retry.js';

const basics: readonly KitCase[] = [
  {
    title:
      "enqueue with only a name fills every default: queue 'default', priority 0, attempts 0, claim 0, maxAttempts 3, payload null, runAt = createdAt = updatedAt = now",
    run: async ({ driver, clock, t0 }) => {
      await clock.advance(12_345);
      const answer = await driver.enqueue({ name: 'send-mail' });
      expect(answer.deduped).toBe(false);
      expectFreshUuid(answer.id);
      expectFreshUuid(answer.runId);
      expect(answer.runId).not.toBe(answer.id);
      expect(await mustGet(driver, answer.id)).toStrictEqual({
        id: answer.id,
        runId: answer.runId,
        name: 'send-mail',
        queue: DEFAULT_QUEUE,
        payload: null,
        state: 'ready',
        priority: 0,
        attempts: 0,
        maxAttempts: DEFAULT_MAX_ATTEMPTS,
        runAt: t0 + 12_345,
        createdAt: t0 + 12_345,
        updatedAt: t0 + 12_345,
        claim: 0,
      });
      expect(DEFAULT_QUEUE).toBe('default');
      expect(DEFAULT_MAX_ATTEMPTS).toBe(3);
    },
  },
  {
    title: 'enqueue stores every optional field it is given',
    run: async ({ driver, t0 }) => {
      const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
      const answer = await driver.enqueue({
        name: 'report',
        queue: 'reports',
        payload: { month: '2026-01' },
        priority: -7,
        maxAttempts: 9,
        idempotencyKey: 'report:2026-01',
        onConflict: 'dedupe',
        concurrencyKey: 'tenant-1',
        tenantId: 'tenant-1',
        traceparent,
        enqueuedBy: 'scheduler',
      });
      expect(await mustGet(driver, answer.id)).toStrictEqual({
        id: answer.id,
        runId: answer.runId,
        name: 'report',
        queue: 'reports',
        payload: { month: '2026-01' },
        state: 'ready',
        priority: -7,
        attempts: 0,
        maxAttempts: 9,
        runAt: t0,
        createdAt: t0,
        updatedAt: t0,
        claim: 0,
        idempotencyKey: 'report:2026-01',
        concurrencyKey: 'tenant-1',
        tenantId: 'tenant-1',
        traceparent,
        enqueuedBy: 'scheduler',
      });
    },
  },
  {
    title:
      "a child's parentId is kept as given, never looked up: get, a claim, a list page and enqueueMany all report it, and a job without one has none",
    run: async ({ driver }) => {
      const queue = freshQueue();
      const parentId = randomUUID();
      const alone = await driver.enqueue({ name: 'fetch', queue, parentId });
      const [first, second, orphan] = await driver.enqueueMany([
        { name: 'fetch', queue, parentId, payload: 1 },
        { name: 'fetch', queue, parentId: parentId.toUpperCase(), payload: 2 },
        { name: 'fetch', queue, payload: 3 },
      ]);
      const made = [alone.id, first?.id, second?.id];
      for (const id of made) expect((await mustGet(driver, String(id))).parentId).toBe(parentId);
      expectAbsent(await mustGet(driver, String(orphan?.id)), 'parentId');
      const page = await listAll(driver, { queue });
      expect(
        page
          .filter((job) => job.parentId === parentId)
          .map((job) => job.id)
          .sort(),
      ).toEqual([...made].sort());
      const claimed = await driver.claim({
        queues: [queue],
        workerId: WORKER,
        visibilityTimeoutMs: LEASE_MS,
        limit: 4,
      });
      expect(claimed).toHaveLength(4);
      for (const job of claimed) {
        if (job.id === orphan?.id) expectAbsent(job, 'parentId');
        else expect(job.parentId).toBe(parentId);
      }
    },
  },
  {
    title: 'enqueue stores the payload as a JSON copy that round-trips exactly',
    run: async ({ driver }) => {
      const payload = {
        text: 'héllo ☃ 😀 "quoted" \\ back',
        numbers: [0, -1.5e10, 2 ** 53 - 1, 0.1],
        negativeZero: -0,
        flags: [true, false, null],
        nested: { deep: { deeper: [[], {}, ''] } },
        dropped: undefined,
      };
      const { id } = await driver.enqueue({ name: 'json', payload: payload as unknown as Json });
      payload.nested.deep.deeper.push('mutated after enqueue');
      expect((await mustGet(driver, id)).payload).toStrictEqual({
        text: 'héllo ☃ 😀 "quoted" \\ back',
        numbers: [0, -1.5e10, 2 ** 53 - 1, 0.1],
        negativeZero: 0,
        flags: [true, false, null],
        nested: { deep: { deeper: [[], {}, ''] } },
      });
    },
  },
  {
    title:
      'enqueue with a runAt in the future makes a delayed job that reads ready once its runAt comes',
    run: async ({ driver, clock, t0 }) => {
      const { id } = await driver.enqueue({ name: 'later', runAt: t0 + 60_000 });
      const delayed = await mustGet(driver, id);
      expect(delayed).toMatchObject({ state: 'delayed', runAt: t0 + 60_000, createdAt: t0 });
      await clock.advance(59_999);
      expect((await mustGet(driver, id)).state).toBe('delayed');
      await clock.advance(1);
      // A read reports the effective state; it is not a change, so nothing else moves.
      expect(await mustGet(driver, id)).toStrictEqual({ ...delayed, state: 'ready' });
    },
  },
  {
    title: 'enqueue with a runAt at or before now makes a ready job that keeps the given runAt',
    run: async ({ driver, t0 }) => {
      const now = await driver.enqueue({ name: 'now', runAt: t0 });
      const past = await driver.enqueue({ name: 'past', runAt: t0 - 5_000 });
      expect(await mustGet(driver, now.id)).toMatchObject({ state: 'ready', runAt: t0 });
      expect(await mustGet(driver, past.id)).toMatchObject({
        state: 'ready',
        runAt: t0 - 5_000,
        createdAt: t0,
      });
    },
  },
  {
    title: 'enqueue floors a fractional runAt to a whole millisecond',
    run: async ({ driver, t0 }) => {
      const { id } = await driver.enqueue({ name: 'fraction', runAt: t0 + 1_500.9 });
      expect(await mustGet(driver, id)).toMatchObject({ state: 'delayed', runAt: t0 + 1_500 });
    },
  },
  {
    title: 'each enqueue without an id or key makes a new job with a fresh id and runId',
    run: async ({ driver }) => {
      const first = await driver.enqueue({ name: 'same', payload: { n: 1 } });
      const second = await driver.enqueue({ name: 'same', payload: { n: 1 } });
      expect(second.deduped).toBe(false);
      expect(second.id).not.toBe(first.id);
      expect(second.runId).not.toBe(first.runId);
      expect((await listAll(driver, { name: 'same' })).map((job) => job.id).sort()).toEqual(
        [first.id, second.id].sort(),
      );
    },
  },
  {
    title: 'enqueue with a caller-allocated id stores the job under that id, lower-cased',
    run: async ({ driver }) => {
      const id = randomUUID();
      const answer = await driver.enqueue({ id: id.toUpperCase(), name: 'outbox' });
      expect(answer).toEqual({ id, runId: answer.runId, deduped: false });
      expectFreshUuid(answer.runId);
      expect((await mustGet(driver, id)).id).toBe(id);
      expect((await mustGet(driver, id.toUpperCase())).id).toBe(id);
    },
  },
  {
    title:
      'enqueue with a caller id that exists answers that live job, deduped, whatever the rest of the request says',
    run: async ({ driver, clock }) => {
      const id = randomUUID();
      const made = await driver.enqueue({ id, name: 'outbox', payload: { v: 1 } });
      const before = await mustGet(driver, id);
      await clock.advance(1_000);
      const again = await driver.enqueue({
        id: id.toUpperCase(),
        name: 'other-name',
        queue: 'other-queue',
        payload: { v: 2 },
        idempotencyKey: 'k',
        onConflict: 'error',
      });
      expect(again).toEqual({ id, runId: made.runId, deduped: true });
      expect(await mustGet(driver, id)).toStrictEqual(before);
      expect(await listAll(driver)).toHaveLength(1);
    },
  },
  {
    title:
      'enqueue with a caller id that exists answers that job, deduped, after it completed, failed, died or was cancelled',
    run: async ({ driver }) => {
      for (const state of ['completed', 'failed', 'dead', 'cancelled'] as const) {
        const id = randomUUID();
        const made = await driver.enqueue({ id, name: `outbox-${state}`, queue: state });
        await settleTo(driver, id, state);
        const before = await mustGet(driver, id);
        const again = await driver.enqueue({ id, name: `outbox-${state}`, queue: state });
        expect(again).toEqual({ id, runId: made.runId, deduped: true });
        expect(await mustGet(driver, id)).toStrictEqual(before);
      }
      expect(await listAll(driver)).toHaveLength(4);
    },
  },
];

export const enqueueGroup: KitGroup = {
  name: 'enqueue',
  cases: [
    ...basics,
    ...enqueueIdCases,
    ...enqueueIdempotencyCases,
    ...enqueueInvalidCases,
    ...enqueueBatchCases,
    ...enqueueRetryCases,
  ],
};
