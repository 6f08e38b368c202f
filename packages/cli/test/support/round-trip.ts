import type {
  EnqueueResult,
  EventRecord,
  JobRecord,
  ListPage,
  QueueStats,
  StepRecord,
} from '@berth/core';
import { expect, it } from 'vitest';
import { berth, berthJson, errorDoc } from './berth.js';
import { completedJob, deadJob, type Target } from './targets.js';

const HOUR = 3_600_000;

/**
 * Every operator command once against one backend, each through the built binary in a process of
 * its own (one that left a connection open would never exit), each `--json` document parsed and
 * checked against what the backend holds. The CLI's own logic (tables, paging, refusals, watch)
 * is covered case by case in `operator-cases.ts`.
 */
export function roundTrip(open: () => Promise<Target>): void {
  it('enqueue, ls, show, a refused then confirmed bulk retry, promote, cancel, purge, events and stats answer what the backend holds', {
    timeout: 90_000,
  }, async () => {
    const target = await open();
    // Each command in a process of its own: one that left a connection open would never exit.
    const json = <T>(...args: string[]) =>
      berthJson<T>([...args, ...target.flags], { process: true });
    try {
      const enqueued = await json<EnqueueResult>(
        'enqueue',
        'report.build',
        '{"month":"2026-11"}',
        '--queue',
        'reports',
        '--priority',
        '3',
        '--key',
        'nov',
        '--delay',
        '1h',
      );
      expect(await target.driver.get(enqueued.doc.id)).toMatchObject({
        name: 'report.build',
        queue: 'reports',
        priority: 3,
        idempotencyKey: 'nov',
        state: 'delayed',
        payload: { month: '2026-11' },
      });

      const dead = await deadJob(target.driver, {
        name: 'email.send',
        steps: ['load-user', 'send'],
      });
      const listed = await json<ListPage>('jobs', 'ls', '--name', 'email.send');
      expect(listed.doc.jobs.map((job) => job.id)).toEqual([dead.id]);
      const shown = await json<{ job: JobRecord; steps: StepRecord[] }>('jobs', 'show', dead.id);
      expect(shown.doc.job).toEqual(await target.driver.get(dead.id));
      expect(shown.doc.steps.map((step) => step.name)).toEqual(['load-user', 'send']);

      const unconfirmed = await berth(
        ['jobs', 'retry', '--state', 'dead', '--json', ...target.flags],
        { process: true },
      );
      // Refused before the driver is opened: nothing was counted.
      expect(unconfirmed.code).toBe(2);
      expect(errorDoc(unconfirmed)).toMatchObject({
        code: 'CONFIRMATION_REQUIRED',
        meta: { action: 'retry' },
      });
      expect((await target.driver.get(dead.id))?.state).toBe('dead');
      const retried = await json('jobs', 'retry', '--state', 'dead', '--yes');
      expect(retried.doc).toEqual({
        action: 'retry',
        selected: 1,
        done: 1,
        refused: 0,
        results: [{ id: dead.id, name: 'email.send', ok: true, state: 'ready' }],
      });

      expect(
        (await json<{ job: JobRecord }>('jobs', 'promote', enqueued.doc.id)).doc.job.state,
      ).toBe('ready');
      const later = await target.driver.enqueue({ name: 'digest.send', runAt: Date.now() + HOUR });
      const cancelled = await json('jobs', 'cancel', '--state', 'delayed', '--yes');
      expect(cancelled.doc).toMatchObject({
        selected: 1,
        done: 1,
        results: [{ id: later.id, state: 'cancelled' }],
      });

      const completed = await completedJob(target.driver, 'email.send');
      expect(
        (await json('purge', '--states', 'completed,cancelled', '--older-than', '0s', '--yes')).doc,
      ).toMatchObject({ purged: 2 });
      expect(await target.driver.get(completed)).toBeUndefined();
      expect(await target.driver.get(later.id)).toBeUndefined();

      const { event } = (
        await json<{ event: EventRecord }>('events', 'publish', 'order.paid', '{"orderId":"o_1"}')
      ).doc;
      expect(
        (await json<{ events: EventRecord[] }>('events', 'ls', 'order.paid')).doc.events,
      ).toEqual([event]);

      const stats = await json<{ queues: QueueStats[] }>('stats');
      const now = await target.driver.stats();
      expect(stats.doc.queues).toEqual(
        now.map((queue) => ({
          ...queue,
          // The ages grew between the two reads; the counts did not move.
          oldestReadyAgeMs: queue.oldestReadyAgeMs === null ? null : expect.any(Number),
        })),
      );
    } finally {
      await target.dispose();
    }
  });
}
