import { createScheduler, type ScheduleRecord } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { berth, berthJson, errorDoc } from './support/berth.js';
import { NIGHTLY } from './support/schedules.js';
import { natsTarget, pgTarget, redisTarget, type Target } from './support/targets.js';

type One = { schedule: ScheduleRecord };
type Upserted = One & { created: boolean; changed: boolean };
type Page = { schedules: ScheduleRecord[]; next?: string };

describe('berth schedules', () => {
  for (const [kind, open] of [
    ['PostgreSQL', () => pgTarget()],
    ['Redis', () => redisTarget()],
    ['NATS', () => natsTarget()],
  ] as const) {
    it(`upsert stores the schedule, ls and show answer what is stored, pause and resume move it, and rm removes it (${kind})`, async () => {
      const target: Target = await open();
      const json = <T>(...args: string[]) => berthJson<T>([...args, ...target.flags]);
      try {
        const before = Date.now();
        const created = await json<Upserted>('schedules', 'upsert', ...NIGHTLY);
        expect(created.doc).toMatchObject({ created: true, changed: true });
        expect(created.doc.schedule).toMatchObject({
          name: 'nightly-report',
          cron: '0 3 * * *',
          timezone: 'Europe/Berlin',
          job: 'report.build',
          queue: 'reports',
          payload: { format: 'pdf' },
          paused: false,
          revision: 1,
        });
        expect(created.doc.schedule.tenantId).toBeUndefined();
        // The next 03:00 in Berlin: within a day from now.
        expect(created.doc.schedule.nextAt).toBeGreaterThan(before);
        expect(created.doc.schedule.nextAt).toBeLessThanOrEqual(Date.now() + 86_400_000);
        expect(await target.driver.schedules.get('nightly-report')).toEqual(created.doc.schedule);

        // Storing what is stored writes nothing; a change bumps the revision.
        const again = await json<Upserted>('schedules', 'upsert', ...NIGHTLY);
        expect(again.doc).toEqual({
          schedule: created.doc.schedule,
          created: false,
          changed: false,
        });
        const changed = await json<Upserted>(
          'schedules',
          'upsert',
          ...NIGHTLY,
          '--priority',
          '5',
          '--max-attempts',
          '2',
        );
        expect(changed.doc).toMatchObject({ created: false, changed: true });
        expect(changed.doc.schedule).toMatchObject({ priority: 5, maxAttempts: 2, revision: 2 });
        // A change other than the cron expression or zone keeps the next slot.
        expect(changed.doc.schedule.nextAt).toBe(created.doc.schedule.nextAt);

        const paused = await json<One>('schedules', 'pause', 'nightly-report');
        expect(paused.doc.schedule).toMatchObject({ paused: true, revision: 3 });
        // Pause is idempotent: the schedule answers as it stands.
        expect((await json<One>('schedules', 'pause', 'nightly-report')).doc.schedule).toEqual(
          paused.doc.schedule,
        );
        const resumed = await json<One>('schedules', 'resume', 'nightly-report');
        expect(resumed.doc.schedule).toMatchObject({ paused: false, revision: 4 });

        const shown = await json<One>('schedules', 'show', 'nightly-report');
        expect(shown.doc.schedule).toEqual(await target.driver.schedules.get('nightly-report'));
        expect(shown.doc.schedule).toEqual(resumed.doc.schedule);
        const listed = await json<Page>('schedules', 'ls');
        expect(listed.doc).toEqual({ schedules: [resumed.doc.schedule] });

        const removed = await json<{ removed: boolean }>(
          'schedules',
          'rm',
          'nightly-report',
          '--yes',
        );
        expect(removed.doc).toEqual({ removed: true });
        expect(await target.driver.schedules.get('nightly-report')).toBeUndefined();
        // A second remove finds nothing to remove: it answers so, and is no failure.
        expect(
          (await json<{ removed: boolean }>('schedules', 'rm', 'nightly-report', '--yes')).doc,
        ).toEqual({ removed: false });
        expect((await json<Page>('schedules', 'ls')).doc).toEqual({ schedules: [] });
      } finally {
        await target.dispose();
      }
    });
  }

  it('ls prints a row per schedule with its cron and zone, job, queue, status, next slot and revision, and pages with --after', async () => {
    const target = await pgTarget();
    const run = (...args: string[]) => berth([...args, ...target.flags]);
    try {
      const upserted = await run('schedules', 'upsert', ...NIGHTLY);
      expect(upserted.code).toBe(0);
      expect(upserted.stdout).toMatch(
        /^created schedule nightly-report: running schedulers enqueue its slots from their next tick$/m,
      );
      expect(upserted.stdout).toMatch(/^payload +\{"format":"pdf"\}$/m);
      const heartbeat = await run(
        'schedules',
        'upsert',
        'heartbeat',
        '--cron',
        '*/30 * * * * *',
        '--job',
        'ping',
        '--paused',
      );
      expect(heartbeat.code).toBe(0);
      expect(heartbeat.stdout).toMatch(/^status +paused$/m);
      expect(heartbeat.stdout).toMatch(/^next slot +none while paused/m);

      const text = await run('schedules', 'ls');
      expect(text.code).toBe(0);
      const lines = text.stdout.trim().split('\n');
      // No schedule has a tenant: no TENANT column.
      expect(lines[0]).toMatch(/^NAME +CRON +JOB +QUEUE +STATUS +NEXT SLOT +REVISION$/);
      expect(lines[1]).toMatch(
        /^heartbeat +\*\/30 \* \* \* \* \* \(UTC\) +ping +default +paused +- +1$/,
      );
      expect(lines[2]).toMatch(
        /^nightly-report +0 3 \* \* \* \(Europe\/Berlin\) +report\.build +reports +active +\d{4}-\d\d-\d\dT\d\d:00:00\.000Z \(in .+\) +1$/,
      );
      expect(lines).toHaveLength(3);

      // One a page: the cursor under the first page gives the second, and the last has none.
      const first = await run('schedules', 'ls', '--limit', '1');
      const [, cursor] = /^more: add --after (\S+)$/m.exec(first.stdout) ?? [];
      expect(first.stdout).toMatch(/^heartbeat /m);
      expect(cursor).toBeDefined();
      const second = await berthJson<Page>([
        'schedules',
        'ls',
        '--limit',
        '1',
        '--after',
        cursor ?? '',
        ...target.flags,
      ]);
      expect(second.doc.schedules.map((schedule) => schedule.name)).toEqual(['nightly-report']);
      const last = await berthJson<Page>([
        'schedules',
        'ls',
        '--limit',
        '1',
        '--after',
        second.doc.next ?? '',
        ...target.flags,
      ]);
      expect(last.doc).toEqual({ schedules: [] });

      // A cursor no page printed: the fix names this command's --after, not jobs ls.
      const garbage = await run('schedules', 'ls', '--after', 'garbage', '--json');
      expect(garbage.code).toBe(1);
      expect(errorDoc(garbage)).toMatchObject({
        code: 'JOB_PAGE_INVALID',
        meta: { reason: 'cursor' },
      });
      expect(errorDoc(garbage).fix).toContain('berth schedules ls printed it');

      const resumed = await run('schedules', 'resume', 'heartbeat');
      expect(resumed.stdout).toMatch(/^resumed heartbeat: next slot \d{4}-\S+ \(in .+\)$/m);
      const removed = await run('schedules', 'rm', 'heartbeat', '--yes');
      expect(removed.stdout).toBe(
        'removed schedule heartbeat: running schedulers enqueue none of its slots from their next tick\n',
      );
      expect((await run('schedules', 'rm', 'heartbeat', '--yes')).stdout).toBe(
        'no schedule heartbeat is stored: nothing removed\n',
      );
    } finally {
      await target.dispose();
    }
  });

  it('show answers the slot the schedulers last enqueued and its job’s state; none before the first', async () => {
    const target = await redisTarget();
    try {
      const json = <T>(...args: string[]) => berthJson<T>([...args, ...target.flags]);
      await json('schedules', 'upsert', ...NIGHTLY, '--catch-up', '1');
      type Shown = One & { last: { slot: number; jobId: string; state: string | null } | null };
      expect((await json<Shown>('schedules', 'show', 'nightly-report')).doc.last).toBeNull();
      const [enqueued] = (await createScheduler({ driver: target.driver }).tick()).enqueued;
      const shown = await json<Shown>('schedules', 'show', 'nightly-report');
      expect(shown.doc.last).toEqual({
        slot: enqueued?.slot,
        jobId: enqueued?.jobId,
        state: 'ready',
      });
      const text = await berth(['schedules', 'show', 'nightly-report', ...target.flags]);
      expect(text.stdout).toMatch(new RegExp(`last slot.*job ${enqueued?.jobId} \\(ready\\)`));
    } finally {
      await target.dispose();
    }
  });

  it('--tenant stores, lists and finds only that tenant’s schedules; another tenant’s is SCHEDULE_NOT_FOUND, as an unknown name', async () => {
    const target = await pgTarget();
    const json = <T>(...args: string[]) => berthJson<T>([...args, ...target.flags]);
    try {
      const acme = await json<Upserted>(
        'schedules',
        'upsert',
        'nightly-report',
        '--cron',
        '0 3 * * *',
        '--job',
        'report.build',
        '--tenant',
        'acme',
      );
      expect(acme.doc.schedule.tenantId).toBe('acme');
      const globex = await json<Upserted>(
        'schedules',
        'upsert',
        'cleanup',
        '--cron',
        '0 4 * * *',
        '--job',
        'cleanup.run',
        '--tenant',
        'globex',
      );
      expect(globex.doc.created).toBe(true);

      const listed = await json<Page>('schedules', 'ls', '--tenant', 'acme');
      expect(listed.doc.schedules.map((schedule) => schedule.name)).toEqual(['nightly-report']);
      // Without --tenant the operator sees every tenant's, and the table names each tenant.
      const every = await json<Page>('schedules', 'ls');
      expect(every.doc.schedules.map((schedule) => schedule.tenantId)).toEqual(['globex', 'acme']);
      const text = await berth(['schedules', 'ls', ...target.flags]);
      expect(text.stdout).toMatch(/^NAME +TENANT +CRON /);
      expect(text.stdout).toMatch(/^nightly-report +acme +0 3 \* \* \* \(UTC\) /m);

      for (const args of [
        ['show', 'cleanup', '--tenant', 'acme'],
        ['pause', 'cleanup', '--tenant', 'acme'],
        ['resume', 'cleanup', '--tenant', 'acme'],
        // Without --tenant a by-name command finds only a schedule of no tenant.
        ['show', 'nightly-report'],
        ['pause', 'no-such-schedule'],
      ]) {
        const missing = await berth(['schedules', ...args, '--json', ...target.flags]);
        expect(missing.code, args.join(' ')).toBe(1);
        expect(errorDoc(missing).code, args.join(' ')).toBe('SCHEDULE_NOT_FOUND');
        expect(errorDoc(missing).fix, args.join(' ')).toContain('berth schedules ls');
        expect(errorDoc(missing).fix, args.join(' ')).toContain('--tenant');
      }
      const text404 = await berth([
        'schedules',
        'show',
        'cleanup',
        '--tenant',
        'acme',
        ...target.flags,
      ]);
      expect(text404.stderr).toMatch(
        /^SCHEDULE_NOT_FOUND no schedule "cleanup" is stored for tenant "acme"$/m,
      );
      const other = await json<{ removed: boolean }>(
        'schedules',
        'rm',
        'cleanup',
        '--tenant',
        'acme',
        '--yes',
      );
      expect(other.doc.removed).toBe(false);
      expect(await target.driver.schedules.get('cleanup', { tenantId: 'globex' })).toMatchObject({
        paused: false,
        revision: 1,
      });

      const shown = await json<One>('schedules', 'show', 'cleanup', '--tenant', 'globex');
      expect(shown.doc.schedule).toEqual(globex.doc.schedule);
    } finally {
      await target.dispose();
    }
  });
});
