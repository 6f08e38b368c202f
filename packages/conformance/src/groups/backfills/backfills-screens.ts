import { randomUUID } from 'node:crypto';
import { MAX_BACKFILL_CURSOR_BYTES, MAX_BACKFILL_ERROR_LENGTH } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import { startRun } from './backfills.js';

/** Every ledger call refuses bad input with JOB_INVALID naming the field, and stores nothing. */
export const backfillScreenCases: readonly KitCase[] = [
  {
    title:
      'start refuses a runId or jobId that is not a uuid, a bad name, a cursor past MAX_BACKFILL_CURSOR_BYTES or not JSON, and a maxActive below 1, each with JOB_INVALID naming the field',
    run: async ({ driver }) => {
      const good = { runId: randomUUID(), jobId: randomUUID(), name: 'n' };
      const refusals: [Record<string, unknown>, string][] = [
        [{ runId: 'r-1' }, 'runId'],
        [{ jobId: 7 }, 'jobId'],
        [{ name: '' }, 'name'],
        [{ name: 'a\u0000b' }, 'name'],
        [{ tenantId: '' }, 'tenantId'],
        [{ cursor: 'x'.repeat(MAX_BACKFILL_CURSOR_BYTES + 1) }, 'cursor'],
        [{ cursor: { at: () => 1 } }, 'cursor'],
        [{ maxActive: 0 }, 'maxActive'],
        [{ maxActive: 1.5 }, 'maxActive'],
      ];
      for (const [bad, field] of refusals) {
        await expectRefusal(driver.backfills.start({ ...good, ...bad } as never), 'JOB_INVALID', {
          field,
        });
      }
      await expectRefusal(driver.backfills.start(null as never), 'JOB_INVALID');
      expect(await driver.backfills.list()).toEqual([]);
    },
  },
  {
    title:
      'transition, commit, get and list refuse bad input with JOB_INVALID naming the field and change nothing',
    run: async ({ driver }) => {
      const run = await startRun(driver, 'n');
      await expectRefusal(driver.backfills.get('nope'), 'JOB_INVALID', { field: 'runId' });
      await expectRefusal(
        driver.backfills.get(run.runId, { tenantId: 3 } as never),
        'JOB_INVALID',
        {
          field: 'tenantId',
        },
      );
      const transition = (change: Record<string, unknown>) =>
        driver.backfills.transition(run.runId, {
          from: ['running'],
          to: 'paused',
          ...change,
        } as never);
      await expectRefusal(transition({ from: [] }), 'JOB_INVALID', { field: 'from' });
      await expectRefusal(transition({ from: ['asleep'] }), 'JOB_INVALID', { field: 'from' });
      await expectRefusal(transition({ to: 'done' }), 'JOB_INVALID', { field: 'to' });
      await expectRefusal(transition({ jobId: 'j' }), 'JOB_INVALID', { field: 'jobId' });
      await expectRefusal(transition({ error: 42 }), 'JOB_INVALID', { field: 'error' });
      const commit = (pass: Record<string, unknown>) =>
        driver.backfills.commit(run.runId, {
          jobId: run.jobId,
          passes: 0,
          next: 1,
          rows: 1,
          ...pass,
        } as never);
      await expectRefusal(commit({ passes: -1 }), 'JOB_INVALID', { field: 'passes' });
      await expectRefusal(commit({ rows: 0.5 }), 'JOB_INVALID', { field: 'rows' });
      await expectRefusal(commit({ rows: Number.NaN }), 'JOB_INVALID', { field: 'rows' });
      await expectRefusal(
        commit({ next: { big: 'x'.repeat(MAX_BACKFILL_CURSOR_BYTES) } }),
        'JOB_INVALID',
        {
          field: 'next',
        },
      );
      await expectRefusal(driver.backfills.list({ limit: 0 }), 'JOB_INVALID', { field: 'limit' });
      await expectRefusal(driver.backfills.list({ limit: 101 }), 'JOB_INVALID', { field: 'limit' });
      await expectRefusal(driver.backfills.list({ status: 'done' } as never), 'JOB_INVALID', {
        field: 'status',
      });
      expect(await driver.backfills.get(run.runId)).toEqual(run);
    },
  },
  {
    title: `a runner's error is stored cut to MAX_BACKFILL_ERROR_LENGTH (${MAX_BACKFILL_ERROR_LENGTH}) characters`,
    run: async ({ driver }) => {
      const run = await startRun(driver, 'n');
      const change = await driver.backfills.transition(run.runId, {
        from: ['running'],
        to: 'failed',
        error: 'e'.repeat(MAX_BACKFILL_ERROR_LENGTH + 500),
      });
      expect(change?.run.lastError).toBe('e'.repeat(MAX_BACKFILL_ERROR_LENGTH));
    },
  },
  {
    title:
      "a runner's error is stored as text every backend keeps: NUL dropped, a lone surrogate (one a cut split too) replaced",
    run: async ({ driver }) => {
      const run = await startRun(driver, 'n');
      const change = await driver.backfills.transition(run.runId, {
        from: ['running'],
        to: 'running',
        error: 'a\u0000b \ud800 c',
      });
      expect(change?.run.lastError).toBe('ab \ufffd c');
      const split = `${'e'.repeat(MAX_BACKFILL_ERROR_LENGTH - 1)}😀`;
      const cut = await driver.backfills.transition(run.runId, {
        from: ['running'],
        to: 'running',
        error: split,
      });
      expect(cut?.run.lastError).toBe(`${'e'.repeat(MAX_BACKFILL_ERROR_LENGTH - 1)}\ufffd`);
      expect(await driver.backfills.get(run.runId)).toEqual(cut?.run);
    },
  },
];
