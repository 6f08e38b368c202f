import type { ListPage } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { berth, berthJson } from './support/berth.js';
import { pgTarget, redisTarget } from './support/targets.js';

describe('berth enqueue says where the job went', () => {
  it('prints the queue and max attempts it used, and warns when that name lives on another queue', async () => {
    const target = await redisTarget();
    try {
      // The app defines email.send on its own queue with 5 attempts.
      await target.driver.enqueue({ name: 'email.send', queue: 'mail', maxAttempts: 5 });

      const adHoc = await berth(['enqueue', 'email.send', ...target.flags]);
      expect(adHoc.code).toBe(0);
      expect(adHoc.stdout).toMatch(/^enqueued email\.send \S+ on queue default, max attempts 3\n$/);
      expect(adHoc.stderr).toMatch(
        /^warning: email\.send jobs live on queue mail, not default: .*pass --queue mail/,
      );

      const placed = await berth(['enqueue', 'email.send', '--queue', 'mail', ...target.flags]);
      expect(placed.stdout).toMatch(/ on queue mail, max attempts 3\n$/);
      expect(placed.stderr).toBe('');

      const json = await berthJson<{ queue: string; maxAttempts: number; warning?: string }>([
        'enqueue',
        'email.send',
        '--max-attempts',
        '7',
        ...target.flags,
      ]);
      expect(json.doc).toMatchObject({ queue: 'default', maxAttempts: 7 });
      // Jobs of the name now live on default too: nothing to warn about.
      expect(json.doc.warning).toBeUndefined();

      const fresh = await berth(['enqueue', 'sms.send', ...target.flags]);
      expect(fresh.stderr).toBe('');
    } finally {
      await target.dispose();
    }
  });
});

describe('berth jobs ls pages both ways', () => {
  it('--before takes a page’s prev cursor and shows the newer page; --before with --after or --all is a usage error', async () => {
    const target = await pgTarget();
    try {
      const ids: string[] = [];
      for (let n = 0; n < 3; n += 1) ids.push((await target.driver.enqueue({ name: 'a' })).id);
      const newestFirst = [...ids].reverse();
      const json = (...args: string[]) =>
        berthJson<ListPage>(['jobs', 'ls', '--limit', '1', ...args, ...target.flags]);

      const first = await json();
      const second = await json('--after', first.doc.next ?? '');
      expect(second.doc.jobs.map((job) => job.id)).toEqual([newestFirst[1]]);
      expect(second.doc.prev).toEqual(expect.any(String));
      const back = await json('--before', second.doc.prev ?? '');
      expect(back.doc.jobs.map((job) => job.id)).toEqual([newestFirst[0]]);
      expect(back.doc.prev).toBeUndefined();

      const table = await berth([
        'jobs',
        'ls',
        '--limit',
        '1',
        '--after',
        first.doc.next ?? '',
        ...target.flags,
      ]);
      expect(table.stdout).toContain(`newer: add --before ${second.doc.prev}`);
      expect(table.stdout).toContain(`more: add --after ${second.doc.next}`);

      for (const extra of [['--after', 'x'], ['--all']]) {
        const ran = await berth(['jobs', 'ls', '--before', 'y', ...extra, ...target.flags]);
        expect(ran.code).toBe(2);
        expect(ran.stderr).toContain('--before walks toward newer jobs');
      }
      // A next cursor is no prev: refused, naming the flags.
      const wrongWay = await berth([
        'jobs',
        'ls',
        '--before',
        first.doc.next ?? '',
        ...target.flags,
        '--json',
      ]);
      expect(wrongWay.code).toBe(1);
      expect(JSON.parse(wrongWay.stderr).fix).toContain('--before');
    } finally {
      await target.dispose();
    }
  });
});
