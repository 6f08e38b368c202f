import { MAX_JOB_LOG_LINES } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import { claimExactly, enqueueAndClaim, fenceOf } from '../fixtures/index.js';
import { appendAll, logLines, readAll, stored } from './logs-fixtures.js';

/** The per-job cap: the earliest MAX_JOB_LOG_LINES lines are kept, later ones only counted. */
export const logsCapCases: readonly KitCase[] = [
  {
    title:
      'a job keeps its earliest MAX_JOB_LOG_LINES lines: a batch that crosses the cap keeps its head, later appends still answer true, and every line past the cap is counted in dropped',
    timeoutMs: 60_000,
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      const head = logLines(MAX_JOB_LOG_LINES - 30, 'early', t0);
      await appendAll(driver, fence, head);
      const crossing = logLines(50, 'crossing', t0 + 5_000);
      expect(await driver.logs.append(fence, { from: head.length, lines: crossing })).toBe(true);
      const late = logLines(7, 'late', t0 + 9_000);
      expect(
        await driver.logs.append(fence, { from: head.length + crossing.length, lines: late }),
      ).toBe(true);
      const all = await readAll(driver, job.id);
      expect(all.lines).toHaveLength(MAX_JOB_LOG_LINES);
      expect(all.lines).toStrictEqual([
        ...stored(head, 1),
        ...stored(crossing.slice(0, 30), 1, head.length + 1),
      ]);
      expect(all.dropped).toBe(27);
      const tail = await driver.logs.list(job.id, { after: MAX_JOB_LOG_LINES - 1 });
      expect(tail).toStrictEqual({
        lines: stored(crossing.slice(29, 30), 1, MAX_JOB_LOG_LINES),
        dropped: 27,
      });
    },
  },
  {
    title:
      'the cap spans attempts: a full job drops the next attempt’s lines and counts them, and a retried dropped batch is not counted twice',
    timeoutMs: 60_000,
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 2 });
      await appendAll(driver, fence, logLines(MAX_JOB_LOG_LINES, 'first', t0));
      expect(await driver.nack(fence, { error: { message: 'retry' } })).toBe(true);
      const next = fenceOf(await claimExactly(driver, job.queue, job.id));
      const more = logLines(3, 'second', t0 + 1);
      expect(await driver.logs.append(next, { from: 0, lines: more })).toBe(true);
      expect(await driver.logs.append(next, { from: 0, lines: more })).toBe(true);
      const page = await driver.logs.list(job.id, { after: MAX_JOB_LOG_LINES - 2 });
      expect(page.lines.map((line) => [line.seq, line.attempt])).toStrictEqual([
        [MAX_JOB_LOG_LINES - 1, 1],
        [MAX_JOB_LOG_LINES, 1],
      ]);
      expect(page.dropped).toBe(3);
    },
  },
  {
    title: 'a page never holds more than its limit, however many lines the job keeps',
    timeoutMs: 60_000,
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      await appendAll(driver, fence, logLines(600, 'many', t0));
      const first = await driver.logs.list(job.id);
      expect(first.lines).toHaveLength(100);
      expect(first.next).toBe(100);
      const widest = await driver.logs.list(job.id, { limit: 500 });
      expect(widest.lines).toHaveLength(500);
      expect(widest.next).toBe(500);
      const walked = await readAll(driver, job.id, 250);
      expect(walked.pages).toBe(3);
      expect(walked.lines).toHaveLength(600);
    },
  },
];
