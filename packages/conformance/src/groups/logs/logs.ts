import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase, KitGroup } from '../../kit.js';
import {
  claimExactly,
  enqueueAndClaim,
  fenceOf,
  mustGet,
  settleTo,
  WORKER,
} from '../fixtures/index.js';
import { staleFences } from '../settle/settle-fence.js';
import { logsCapCases } from './logs-cap.js';
import { appendAll, logLines, readAll, stored } from './logs-fixtures.js';
import { logsWorkerCases } from './logs-worker.js';

const driverCases: readonly KitCase[] = [
  {
    title:
      'lines appended by the lease holder are listed in order with seq, attempt, at, level and message, and the job record does not move',
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      const before = await mustGet(driver, job.id);
      const first = logLines(3, 'one', t0);
      const second = logLines(2, 'two', t0 + 10);
      expect(await driver.logs.append(fence, { from: 0, lines: first })).toBe(true);
      expect(await driver.logs.append(fence, { from: 3, lines: second })).toBe(true);
      expect(await driver.logs.list(job.id)).toStrictEqual({
        lines: [...stored(first, 1), ...stored(second, 1, 4)],
        dropped: 0,
      });
      expect(await mustGet(driver, job.id)).toStrictEqual(before);
    },
  },
  {
    title: 'a job that logged nothing lists no lines, in any state',
    run: async ({ driver }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      expect(await driver.logs.list(job.id)).toStrictEqual({ lines: [], dropped: 0 });
      expect(await driver.ack(fence)).toBe(true);
      expect(await driver.logs.list(job.id)).toStrictEqual({ lines: [], dropped: 0 });
      const { id } = await driver.enqueue({ name: 'never-claimed' });
      expect(await driver.logs.list(id)).toStrictEqual({ lines: [], dropped: 0 });
    },
  },
  {
    title:
      'pages walk by seq: each full page answers next (its last seq), the last page none, and after past the end answers no lines',
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      const input = logLines(250, 'line', t0);
      await appendAll(driver, fence, input);
      const one = await driver.logs.list(job.id, { limit: 100 });
      expect(one.lines.map((line) => line.seq)).toStrictEqual(
        Array.from({ length: 100 }, (_, index) => index + 1),
      );
      expect(one.next).toBe(100);
      const two = await driver.logs.list(job.id, { after: 100, limit: 100 });
      expect(two.next).toBe(200);
      expect(two.lines[0]).toStrictEqual(stored(input, 1)[100]);
      const three = await driver.logs.list(job.id, { after: 200, limit: 100 });
      expect(three.lines).toHaveLength(50);
      expect(three.next).toBeUndefined();
      const exact = await driver.logs.list(job.id, { after: 150, limit: 100 });
      expect(exact.lines).toHaveLength(100);
      expect(exact.next).toBeUndefined();
      expect(await driver.logs.list(job.id, { after: 250 })).toStrictEqual({
        lines: [],
        dropped: 0,
      });
      expect((await readAll(driver, job.id, 7)).lines).toStrictEqual(stored(input, 1));
    },
  },
  {
    title:
      'lines keep the attempt that wrote them: after a retry the next attempt’s lines follow with attempt 2, and a requeued run’s restart at 1',
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 3 });
      const first = logLines(2, 'first', t0);
      await appendAll(driver, fence, first);
      expect(await driver.nack(fence, { error: { message: 'retry' } })).toBe(true);
      const second = await claimExactly(driver, job.queue, job.id);
      const again = logLines(2, 'second', t0 + 5);
      await appendAll(driver, fenceOf(second), again);
      expect(await driver.nack(fenceOf(second), { error: { message: 'x' }, final: true })).toBe(
        true,
      );
      await driver.requeue(job.id);
      const third = await claimExactly(driver, job.queue, job.id);
      const after = logLines(1, 'requeued', t0 + 9);
      await appendAll(driver, fenceOf(third), after);
      expect((await readAll(driver, job.id)).lines).toStrictEqual([
        ...stored(first, 1),
        ...stored(again, 2, 3),
        ...stored(after, 1, 5),
      ]);
    },
  },
  {
    title:
      'a batch retried after its answer was lost is stored once: lines before `from` + what the claim already wrote are skipped; a new claim starts from 0',
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 2 });
      const input = logLines(5, 'line', t0);
      expect(await driver.logs.append(fence, { from: 0, lines: input.slice(0, 3) })).toBe(true);
      expect(await driver.logs.append(fence, { from: 0, lines: input.slice(0, 3) })).toBe(true);
      expect(await driver.logs.append(fence, { from: 2, lines: input.slice(2, 5) })).toBe(true);
      expect((await readAll(driver, job.id)).lines).toStrictEqual(stored(input, 1));
      expect(await driver.nack(fence, { error: { message: 'retry' } })).toBe(true);
      const next = fenceOf(await claimExactly(driver, job.queue, job.id));
      const more = logLines(2, 'next', t0 + 50);
      expect(await driver.logs.append(next, { from: 0, lines: more })).toBe(true);
      expect((await readAll(driver, job.id)).lines).toStrictEqual([
        ...stored(input, 1),
        ...stored(more, 2, 6),
      ]);
    },
  },
  ...staleFences.map(
    ({ what, make }): KitCase => ({
      title: `an append with ${what} answers false and writes nothing`,
      run: async ({ driver, clock, t0 }) => {
        const { jobId, stale, holder } = await make(driver, clock, t0);
        const before = await driver.get(jobId);
        expect(await driver.logs.append(stale, { from: 0, lines: logLines(2, 'stale', t0) })).toBe(
          false,
        );
        expect(await driver.logs.list(jobId)).toStrictEqual({ lines: [], dropped: 0 });
        expect(await driver.get(jobId)).toStrictEqual(before);
        if (holder !== undefined) {
          expect(
            await driver.logs.append(holder, { from: 0, lines: logLines(1, 'held', t0) }),
          ).toBe(true);
          expect((await driver.logs.list(jobId)).lines).toHaveLength(1);
        }
      },
    }),
  ),
  {
    title: 'an append naming a job nobody queued answers false; listing it answers JOB_NOT_FOUND',
    run: async ({ driver, t0 }) => {
      const jobId = randomUUID();
      const fence = { jobId, workerId: WORKER, claim: 1 };
      expect(await driver.logs.append(fence, { from: 0, lines: logLines(1, 'x', t0) })).toBe(false);
      await expectRefusal(driver.logs.list(jobId), 'JOB_NOT_FOUND', { jobId });
    },
  },
  {
    title:
      'tenancy: listing with a tenantId sees only that tenant’s job; another tenant’s (or an untenanted) job answers JOB_NOT_FOUND',
    run: async ({ driver, t0 }) => {
      const acme = await enqueueAndClaim(driver, { tenantId: 'acme' });
      const plain = await enqueueAndClaim(driver);
      await appendAll(driver, acme.fence, logLines(2, 'acme', t0));
      await appendAll(driver, plain.fence, logLines(2, 'plain', t0));
      expect((await driver.logs.list(acme.job.id, { tenantId: 'acme' })).lines).toHaveLength(2);
      expect((await driver.logs.list(acme.job.id)).lines).toHaveLength(2);
      await expectRefusal(driver.logs.list(acme.job.id, { tenantId: 'globex' }), 'JOB_NOT_FOUND', {
        jobId: acme.job.id,
      });
      await expectRefusal(driver.logs.list(plain.job.id, { tenantId: 'acme' }), 'JOB_NOT_FOUND', {
        jobId: plain.job.id,
      });
    },
  },
  {
    title: 'lines are kept after the job settles and removed with it by purge',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      await appendAll(driver, fence, logLines(3, 'kept', t0));
      expect(await driver.ack(fence)).toBe(true);
      expect((await driver.logs.list(job.id)).lines).toHaveLength(3);
      const other = await driver.enqueue({ name: 'task' });
      await settleTo(driver, other.id, 'cancelled');
      await clock.advance(1);
      expect(
        await driver.purge({ states: ['completed'], olderThan: clock.now(), ids: [job.id] }),
      ).toBe(1);
      await expectRefusal(driver.logs.list(job.id), 'JOB_NOT_FOUND');
      expect(await driver.logs.list(other.id)).toStrictEqual({ lines: [], dropped: 0 });
    },
  },
  {
    title:
      'an append is refused JOB_INVALID for no lines, over 100 lines, a bad level or a non-string message; a list limit outside 1..500 is JOB_PAGE_INVALID',
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      await expectRefusal(driver.logs.append(fence, { from: 0, lines: [] }), 'JOB_INVALID', {
        field: 'lines',
      });
      await expectRefusal(
        driver.logs.append(fence, { from: 0, lines: logLines(101, 'x', t0) }),
        'JOB_INVALID',
        { field: 'lines' },
      );
      const bad = [
        { at: t0, level: 'loud', message: 'x' },
        { at: t0, level: 'info', message: 3 },
        { at: Number.NaN, level: 'info', message: 'x' },
      ];
      for (const line of bad) {
        await expectRefusal(
          driver.logs.append(fence, { from: 0, lines: [line as never] }),
          'JOB_INVALID',
        );
      }
      await expectRefusal(driver.logs.list(job.id, { limit: 0 }), 'JOB_PAGE_INVALID');
      await expectRefusal(driver.logs.list(job.id, { limit: 501 }), 'JOB_PAGE_INVALID');
      expect(await driver.logs.list(job.id)).toStrictEqual({ lines: [], dropped: 0 });
    },
  },
  {
    title:
      'hostile input (a Proxy batch or options, a getter or a hole among the lines, an id that is not a uuid) is refused JOB_INVALID and writes nothing',
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      const trap = () => {
        throw new Error('a Proxy trap ran inside a screen');
      };
      const proxy = new Proxy({}, { get: trap, ownKeys: trap, getPrototypeOf: trap, has: trap });
      const getter = Object.defineProperty({ at: t0, level: 'info' }, 'message', {
        enumerable: true,
        get() {
          throw new Error('a getter ran inside a screen');
        },
      });
      const holed = [...logLines(2, 'x', t0)];
      delete holed[0];
      const calls: (() => Promise<unknown>)[] = [
        () => driver.logs.append(fence, proxy as never),
        () => driver.logs.append(fence, { from: 0, lines: [getter as never] }),
        () => driver.logs.append(fence, { from: 0, lines: holed }),
        () => driver.logs.append(fence, { from: -1, lines: logLines(1, 'x', t0) }),
        () => driver.logs.list(job.id, proxy as never),
        () => driver.logs.list('not-a-uuid'),
      ];
      for (const call of calls) await expectRefusal(call(), 'JOB_INVALID');
      expect(await driver.logs.list(job.id)).toStrictEqual({ lines: [], dropped: 0 });
    },
  },
  {
    title:
      'messages round-trip any text (multi-byte, newlines); a NUL or a lone surrogate becomes U+FFFD and one over MAX_LOG_LINE_BYTES is cut to that many bytes ending with …',
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      const texts = ['héllo wörld ✓ 🚀', 'two\nlines\ttab', 'nul\u0000here', 'lone \ud800 half'];
      const long = '€'.repeat(1_000);
      const lines = [...texts, long].map((message) => ({
        at: t0,
        level: 'info' as const,
        message,
      }));
      await appendAll(driver, fence, lines);
      const read = (await driver.logs.list(job.id)).lines.map((line) => line.message);
      expect(read.slice(0, 4)).toStrictEqual([
        'héllo wörld ✓ 🚀',
        'two\nlines\ttab',
        'nul\uFFFDhere',
        'lone \uFFFD half',
      ]);
      const cut = read[4] ?? '';
      expect(cut.endsWith('…')).toBe(true);
      expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(2_048);
      expect(cut.slice(0, -1)).toBe('€'.repeat(681));
    },
  },
  {
    title:
      'sibling instances agree: lines one appends another lists, and the same batch raced by every sibling is stored once',
    run: async ({ driver, sibling, t0 }) => {
      const others = await Promise.all([sibling(), sibling(), sibling()]);
      const { job, fence } = await enqueueAndClaim(driver);
      const input = logLines(4, 'raced', t0);
      const answers = await Promise.all(
        [driver, ...others].map((each) => each.logs.append(fence, { from: 0, lines: input })),
      );
      expect(answers).toStrictEqual([true, true, true, true]);
      for (const each of [driver, ...others]) {
        expect((await each.logs.list(job.id)).lines).toStrictEqual(stored(input, 1));
      }
      const more = logLines(2, 'more', t0 + 10);
      expect(await others[0]?.logs.append(fence, { from: 4, lines: more })).toBe(true);
      expect((await readAll(driver, job.id)).lines).toStrictEqual([
        ...stored(input, 1),
        ...stored(more, 1, 5),
      ]);
    },
  },
];

/**
 * `logs`: a job's log lines (`driver.logs`, `ctx.log`). Appends are fenced like ack and
 * idempotent per claim; lists page by seq and honour tenancy; each job keeps its earliest
 * MAX_JOB_LOG_LINES lines and counts the rest.
 */
export const logsGroup: KitGroup = {
  name: 'logs',
  cases: [...driverCases, ...logsCapCases, ...logsWorkerCases],
};
