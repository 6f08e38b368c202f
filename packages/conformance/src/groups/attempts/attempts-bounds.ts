import { randomUUID } from 'node:crypto';
import {
  MAX_ATTEMPT_MESSAGE_BYTES,
  MAX_ATTEMPT_RECORDS,
  MAX_ATTEMPT_STACK_BYTES,
} from '@berth/core';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import {
  claimExactly,
  enqueueAndClaim,
  fenceOf,
  freshQueue,
  mustGet,
  WORKER,
} from '../fixtures/index.js';
import { historyOf, outcomesOf } from './attempts-support.js';

const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');

export const attemptBoundCases: readonly KitCase[] = [
  {
    title: `past MAX_ATTEMPT_RECORDS (${MAX_ATTEMPT_RECORDS}) the first record and the latest ${MAX_ATTEMPT_RECORDS - 1} are kept, and dropped counts the rest`,
    run: async ({ driver, clock }) => {
      const total = MAX_ATTEMPT_RECORDS + 3;
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: total + 1 });
      let current = fence;
      for (let n = 1; n <= total; n += 1) {
        await clock.advance(1);
        expect(await driver.nack(current, { error: { message: `attempt ${n}` } })).toBe(true);
        if (n < total) current = fenceOf(await claimExactly(driver, job.queue, job.id));
      }
      const history = await historyOf(driver, job.id);
      expect(history.dropped).toBe(total - MAX_ATTEMPT_RECORDS);
      expect(history.records.map((record) => record.seq)).toEqual([
        1,
        ...Array.from(
          { length: MAX_ATTEMPT_RECORDS - 1 },
          (_, i) => total - MAX_ATTEMPT_RECORDS + 2 + i,
        ),
      ]);
      expect(history.records[0]?.error).toEqual({ message: 'attempt 1' });
      expect(history.records.at(-1)).toMatchObject({
        attempt: total,
        error: { message: `attempt ${total}` },
      });
      expect(history.records.map((record) => record.attempt)).toEqual(
        history.records.map((record) => record.seq),
      );
    },
  },
  {
    title:
      'an attempt error keeps its code, and its message and stack cut to MAX_ATTEMPT_MESSAGE_BYTES and MAX_ATTEMPT_STACK_BYTES of UTF-8 on whole characters; lastError keeps them whole',
    run: async ({ driver }) => {
      // 2-, 3- and 4-byte characters, each cut falling inside one.
      const message = `a${'€'.repeat(MAX_ATTEMPT_MESSAGE_BYTES)}`;
      const stack = `ab${'😀'.repeat(MAX_ATTEMPT_STACK_BYTES / 4)}`;
      const accents = 'é'.repeat(MAX_ATTEMPT_MESSAGE_BYTES);
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 3 });
      const error = { code: 'BIG', message, stack };
      expect(await driver.nack(fence, { error })).toBe(true);
      const second = await claimExactly(driver, job.queue, job.id);
      expect(await driver.nack(fenceOf(second), { error: { message: accents } })).toBe(true);
      const [first, next] = (await historyOf(driver, job.id)).records;
      expect(first?.error).toStrictEqual({
        code: 'BIG',
        message: `a${'€'.repeat((MAX_ATTEMPT_MESSAGE_BYTES - 1) / 3)}`,
        stack: `ab${'😀'.repeat(MAX_ATTEMPT_STACK_BYTES / 4 - 1)}`,
      });
      expect(byteLength(first?.error?.message ?? '')).toBe(MAX_ATTEMPT_MESSAGE_BYTES);
      expect(byteLength(first?.error?.stack ?? '')).toBe(MAX_ATTEMPT_STACK_BYTES - 2);
      expect(next?.error).toStrictEqual({ message: 'é'.repeat(MAX_ATTEMPT_MESSAGE_BYTES / 2) });
      expect((await mustGet(driver, job.id)).lastError?.message).toBe(accents);
      const short = await enqueueAndClaim(driver);
      const small = { message: 'ok, short', stack: 'Error: x\n    at y (z.ts:1:2)' };
      expect(await driver.nack(short.fence, { error: small, final: true })).toBe(true);
      expect((await historyOf(driver, short.job.id)).records[0]?.error).toStrictEqual(small);
    },
  },
  {
    title:
      'attempts.list of an id nobody queued answers undefined; a job never claimed, or running its first attempt, answers an empty history',
    run: async ({ driver }) => {
      expect(await driver.attempts.list(randomUUID())).toBeUndefined();
      const { id } = await driver.enqueue({ name: 'task', queue: freshQueue() });
      expect(await driver.attempts.list(id)).toStrictEqual({ records: [], dropped: 0 });
      const { job } = await enqueueAndClaim(driver);
      expect(await driver.attempts.list(job.id)).toStrictEqual({ records: [], dropped: 0 });
    },
  },
  {
    title:
      'attempts.list naming another tenant (or a tenant for a job of none) answers undefined exactly as for an id nobody queued; its own tenant or none answers the history',
    run: async ({ driver }) => {
      const { job, fence } = await enqueueAndClaim(driver, { tenantId: 'acme' });
      expect(await driver.ack(fence)).toBe(true);
      expect(await driver.attempts.list(job.id, { tenantId: 'globex' })).toBeUndefined();
      expect(await driver.attempts.list(randomUUID(), { tenantId: 'globex' })).toBeUndefined();
      expect(await outcomesOf(driver, job.id)).toEqual(['completed']);
      expect((await historyOf(driver, job.id, 'acme')).records).toHaveLength(1);
      const untenanted = await enqueueAndClaim(driver);
      expect(await driver.ack(untenanted.fence)).toBe(true);
      expect(await driver.attempts.list(untenanted.job.id, { tenantId: 'acme' })).toBeUndefined();
    },
  },
  {
    title: 'attempts.list refuses an id that is not a uuid JOB_INVALID (field id), as get does',
    run: async ({ driver }) => {
      await expect(driver.attempts.list('not-a-uuid')).rejects.toMatchObject({
        code: 'JOB_INVALID',
      });
    },
  },
  {
    title: 'purge removes a job’s history with the job: attempts.list then answers undefined',
    run: async ({ driver, clock }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      expect(await driver.ack(fence)).toBe(true);
      await clock.advance(1);
      expect(
        await driver.purge({ states: ['completed'], olderThan: clock.now(), ids: [job.id] }),
      ).toBe(1);
      expect(await driver.attempts.list(job.id)).toBeUndefined();
    },
  },
  {
    title:
      'a sibling driver over the same store reads the same history, and records what it ends there; a repeated read answers the same',
    run: async ({ driver, sibling }) => {
      const other = await sibling();
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 2 });
      expect(await other.nack(fence, { error: { message: 'from the sibling' } })).toBe(true);
      const again = await claimExactly(other, job.queue, job.id, WORKER);
      expect(await driver.ack(fenceOf(again))).toBe(true);
      const mine = await historyOf(driver, job.id);
      expect(await historyOf(other, job.id)).toStrictEqual(mine);
      expect(await historyOf(driver, job.id)).toStrictEqual(mine);
      expect(mine.records.map((record) => record.outcome)).toEqual(['retried', 'completed']);
    },
  },
];
