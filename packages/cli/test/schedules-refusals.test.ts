import { describe, expect, it } from 'vitest';
import { berth, berthJson, errorDoc } from './support/berth.js';
import { NIGHTLY } from './support/schedules.js';
import { pgTarget, redisTarget } from './support/targets.js';

describe('berth schedules refuses', () => {
  it('a cron expression or zone that does not parse is JOB_INVALID naming cron, its fix naming --cron; nothing is stored', async () => {
    const target = await redisTarget();
    try {
      for (const [args, reason] of [
        [['--cron', '0 3 * *'], /has 4 fields/],
        [['--cron', '0 99 * * *'], /is not a valid cron schedule/],
        [['--cron', '0 3 * * *', '--timezone', 'Mars/Base'], /in timezone "Mars\/Base"/],
      ] as const) {
        const bad = await berth([
          'schedules',
          'upsert',
          'nightly-report',
          '--job',
          'report.build',
          ...args,
          '--json',
          ...target.flags,
        ]);
        expect(bad.code, args.join(' ')).toBe(1);
        const error = errorDoc(bad);
        expect(error).toMatchObject({ code: 'JOB_INVALID', meta: { field: 'cron' } });
        expect(error.detail, args.join(' ')).toMatch(reason);
        expect(error.fix).toMatch(/^correct --cron: 5 fields/);
      }
      const text = await berth([
        'schedules',
        'upsert',
        'nightly-report',
        '--cron',
        'every night',
        '--job',
        'report.build',
        ...target.flags,
      ]);
      expect(text.code).toBe(1);
      expect(text.stderr).toMatch(/^JOB_INVALID cron "every night" has 2 fields$/m);
      expect(text.stderr).toMatch(/^fix: correct --cron: /m);

      const catchUp = await berth([
        'schedules',
        'upsert',
        'nightly-report',
        '--cron',
        '0 3 * * *',
        '--job',
        'report.build',
        '--catch-up',
        '5000',
        '--json',
        ...target.flags,
      ]);
      expect(catchUp.code).toBe(1);
      expect(errorDoc(catchUp)).toMatchObject({ code: 'JOB_INVALID', meta: { field: 'catchUp' } });
      expect(errorDoc(catchUp).fix).toMatch(/^correct --catch-up /);
      expect((await target.driver.schedules.list()).schedules).toEqual([]);
    } finally {
      await target.dispose();
    }
  });

  it('rm without --yes where no terminal can confirm is refused (exit 2) before anything is sent', async () => {
    const target = await pgTarget();
    try {
      await berthJson(['schedules', 'upsert', ...NIGHTLY, ...target.flags]);
      const refused = await berth(['schedules', 'rm', 'nightly-report', ...target.flags]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        /^CONFIRMATION_REQUIRED removing schedule nightly-report needs confirmation/m,
      );
      expect(refused.stderr).toMatch(
        /^fix: add --yes .*: berth schedules rm nightly-report .*--yes$/m,
      );
      const json = await berth(['schedules', 'rm', 'nightly-report', '--json', ...target.flags]);
      expect(json.code).toBe(2);
      expect(errorDoc(json)).toMatchObject({
        code: 'CONFIRMATION_REQUIRED',
        meta: { action: 'removing schedule nightly-report' },
      });
      expect(await target.driver.schedules.get('nightly-report')).toBeDefined();
    } finally {
      await target.dispose();
    }
    // Refused before any server is asked: nothing listens on port 1.
    const unreachable = await berth(['schedules', 'rm', 'x', '--url', 'redis://127.0.0.1:1']);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain('CONFIRMATION_REQUIRED');
  });

  it('a payload that is not JSON, a bad limit, priority or catch-up and a missing --cron exit 2 before any server is asked', async () => {
    // Nothing listens on port 1: a command that got as far as its driver would exit 1.
    const url = ['--url', 'redis://127.0.0.1:1'];
    const upsert = ['upsert', 'nightly-report', '--cron', '0 3 * * *', '--job', 'report.build'];
    const cases: [string[], RegExp][] = [
      [[...upsert, '--payload', '{format:pdf}'], /--payload <json>.*not JSON/],
      [['ls', '--limit', '101'], /--limit <n>.*not an integer from 1 to 100/],
      [[...upsert, '--priority', 'high'], /--priority <n>.*not an integer/],
      [[...upsert, '--max-attempts', '0'], /--max-attempts <n>.*not an integer/],
      [[...upsert, '--catch-up', 'all'], /--catch-up <none\|n>.*not none or a number/],
      [['upsert', 'nightly-report', '--job', 'report.build'], /required option '--cron <expr>'/],
      [['upsert', 'nightly-report', '--cron', '0 3 * * *'], /required option '--job <jobName>'/],
      [['show'], /missing required argument 'name'/],
    ];
    for (const [args, message] of cases) {
      const ran = await berth(['schedules', ...args, ...url]);
      expect(ran.code, args.join(' ')).toBe(2);
      expect(ran.stderr, args.join(' ')).toMatch(message);
    }
  });
});
