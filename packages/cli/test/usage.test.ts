import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { berth } from './support/berth.js';

const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

describe('usage errors exit 2 before anything is sent', () => {
  it('--help and --version exit 0', async () => {
    const help = await berth(['--help']);
    expect(help.code).toBe(0);
    for (const command of [
      'migrate',
      'jobs',
      'stats',
      'purge',
      'events',
      'enqueue',
      'backfills',
      'schedules',
    ]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    expect(await berth(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('an unknown command, an unknown option and a command group alone exit 2 with the reason', async () => {
    const unknown = await berth(['frobnicate']);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    const option = await berth(['stats', '--colour']);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("unknown option '--colour'");
    const group = await berth(['jobs']);
    expect(group.code).toBe(2);
    expect(group.stderr).toContain('Usage: berth jobs');
  });

  it('a bad duration, state, number or JSON value exits 2 naming the flag', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['purge', '--states', 'completed', '--older-than', '7x'],
        /--older-than <duration>.*'7x' is invalid\. not a duration/,
      ],
      [['purge', '--states', 'ready', '--older-than', '7d'], /ready is live work/],
      [['jobs', 'ls', '--state', 'stuck'], /--state <state>.*'stuck' is invalid\. not a job state/],
      [['jobs', 'ls', '--limit', '501'], /--limit <n>.*not an integer from 1 to 500/],
      [
        ['enqueue', 'email.send', '{to: ada}'],
        /'\{to: ada\}' is invalid for argument 'json'\. not JSON/,
      ],
    ];
    for (const [args, message] of cases) {
      const ran = await berth(args);
      expect(ran.code, args.join(' ')).toBe(2);
      expect(ran.stderr, args.join(' ')).toMatch(message);
    }
  });

  it('an act with neither an id nor a filter, a missing --url and a namespace flag of the other driver exit 2', async () => {
    const neither = await berth(['jobs', 'retry']);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('give a job id, or a filter (--state, --queue, --name)');
    const noUrl = await berth(['stats']);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('pass --url <url> or set BERTH_URL');
    const wrongFlag = await berth([
      'stats',
      '--url',
      'redis://127.0.0.1:6379',
      '--schema',
      'berth',
    ]);
    expect(wrongFlag.code).toBe(2);
    expect(wrongFlag.stderr).toContain('--schema is for postgres:// URLs');
  });

  it('with --json a usage error is one JSON document on stderr and nothing on stdout', async () => {
    const ran = await berth(['jobs', 'ls', '--state', 'stuck', '--json']);
    expect(ran).toMatchObject({ code: 2, stdout: '' });
    expect(JSON.parse(ran.stderr)).toEqual({
      name: 'UsageError',
      code: 'USAGE_INVALID',
      reason: 'invalidArgument',
      message: expect.stringContaining("'stuck' is invalid"),
    });
    // Every usage error carries the same Berth code, whichever part of the CLI found it.
    for (const args of [
      ['stats', '--colour'],
      ['frobnicate'],
      ['jobs', 'retry'],
      ['stats'],
      ['jobs', 'ls', '--before', 'x', '--after', 'y'],
    ]) {
      const usage = await berth([...args, '--json']);
      expect(usage.code, args.join(' ')).toBe(2);
      expect(JSON.parse(usage.stderr), args.join(' ')).toMatchObject({
        name: 'UsageError',
        code: 'USAGE_INVALID',
      });
      expect(usage.stderr).not.toContain('commander.');
    }
  });
});
