import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { berth, berthJson } from './support/berth.js';
import { pgTarget, type Target } from './support/targets.js';

const MINUTE = 60_000;

interface Doc {
  readonly queues: readonly { queue: string }[];
  readonly throughput: {
    readonly minutes: number;
    readonly minuteStarts: readonly number[];
    readonly queues: readonly {
      queue: string;
      completed: number[];
      failed: number[];
      completedPerMinute: number;
      failedPerMinute: number;
    }[];
    readonly capped: readonly string[];
  };
  readonly concurrency: {
    readonly keys: readonly { name: string; key: string; running: number }[];
    readonly keyCount: number;
    readonly scanned: number;
    readonly truncated: boolean;
  };
  readonly stale: {
    readonly afterMs: number;
    readonly names: readonly {
      queue: string;
      name: string;
      oldestReadyAgeMs: number;
      seen: number;
    }[];
    readonly partial: readonly string[];
  };
}

describe('berth stats: throughput and stale ready names (pg)', () => {
  let target: Target;

  beforeAll(async () => {
    target = await pgTarget();
    const { driver } = target;
    const now = Date.now();
    // Two old ready jobs of a name nobody runs, and a young one of another name.
    await driver.enqueue({ name: 'orphan.job', queue: 'reports', runAt: now - 10 * MINUTE });
    await driver.enqueue({ name: 'orphan.job', queue: 'reports', runAt: now - 8 * MINUTE });
    await driver.enqueue({ name: 'fresh.job', queue: 'reports' });
    // One completed and one dead on `mail`, just now.
    for (const outcome of ['ack', 'dead'] as const) {
      await driver.enqueue({ name: 'email.send', queue: 'mail' });
      const [job] = await driver.claim({
        queues: ['mail'],
        workerId: 'stats-test',
        visibilityTimeoutMs: 60_000,
      });
      if (job === undefined) throw new Error('nothing claimed');
      const fence = { jobId: job.id, workerId: 'stats-test', claim: job.claim };
      if (outcome === 'ack') await driver.ack(fence);
      else await driver.nack(fence, { error: { message: 'boom' }, final: true });
    }
  });
  afterAll(async () => {
    await target?.dispose();
  });

  it('--json carries completed and failed per minute per queue over --minutes', async () => {
    const { doc } = await berthJson<Doc>(['stats', '--minutes', '3', ...target.flags]);
    expect(doc.throughput.minutes).toBe(3);
    expect(doc.throughput.minuteStarts).toHaveLength(3);
    const mail = doc.throughput.queues.find((entry) => entry.queue === 'mail');
    expect(mail?.completed.reduce((a, b) => a + b, 0)).toBe(1);
    expect(mail?.failed.reduce((a, b) => a + b, 0)).toBe(1);
    expect(mail?.completedPerMinute).toBe(0.33);
    expect(mail?.failedPerMinute).toBe(0.33);
    expect(doc.throughput.capped).toEqual([]);
  });

  it('flags names whose oldest ready job waited longer than --stale-after, and only those', async () => {
    const { doc } = await berthJson<Doc>(['stats', '--stale-after', '5m', ...target.flags]);
    expect(doc.stale.afterMs).toBe(5 * MINUTE);
    expect(doc.stale.names).toHaveLength(1);
    expect(doc.stale.names[0]).toMatchObject({ queue: 'reports', name: 'orphan.job', seen: 2 });
    expect(doc.stale.names[0]?.oldestReadyAgeMs).toBeGreaterThanOrEqual(10 * MINUTE);
    expect(doc.stale.partial).toEqual([]);
    const later = await berthJson<Doc>(['stats', '--stale-after', '1h', ...target.flags]);
    expect(later.doc.stale.names).toEqual([]);
  });

  it('prints the rates and a section of stale names', async () => {
    const ran = await berth(['stats', '--stale-after', '5m', ...target.flags]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/COMPLETED\/MIN +FAILED\/MIN/);
    expect(ran.stdout).toMatch(/^mail( +\d+){8} +- +0\.2 +0\.2$/m);
    expect(ran.stdout).toContain('ready jobs no worker ran for over 5m');
    expect(ran.stdout).toMatch(/^reports +orphan\.job +10m( \d+s)? +2$/m);
    expect(ran.stdout).not.toContain('fresh.job');
  });

  it('a bad --stale-after or --minutes is a usage error (exit 2)', async () => {
    for (const args of [
      ['--stale-after', '0s'],
      ['--stale-after', 'soon'],
      ['--minutes', '0'],
      ['--minutes', '61'],
    ]) {
      const ran = await berth(['stats', ...args, ...target.flags]);
      expect(ran.code).toBe(2);
    }
  });

  it('with no keyed job running, prints no concurrency keys table', async () => {
    const ran = await berth(['stats', ...target.flags]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).not.toContain('CONCURRENCY KEY');
    const { doc } = await berthJson<Doc>(['stats', ...target.flags]);
    expect(doc.concurrency).toEqual({ keys: [], keyCount: 0, scanned: 0, truncated: false });
  });
});

describe('berth stats: concurrency keys in use (pg)', () => {
  let target: Target;

  beforeAll(async () => {
    target = await pgTarget();
    const { driver } = target;
    // Running: two jobs under acct-1, one under acct-2, one with no key; acct-3's job is ready.
    for (const key of ['acct-1', 'acct-2', 'acct-1', undefined]) {
      await driver.enqueue({
        name: key === undefined ? 'plain.job' : 'account.sync',
        queue: 'sync',
        ...(key === undefined ? {} : { concurrencyKey: key }),
      });
    }
    const claimed = await driver.claim({
      queues: ['sync'],
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
      limit: 10,
    });
    expect(claimed).toHaveLength(4);
    await driver.enqueue({ name: 'account.sync', queue: 'sync', concurrencyKey: 'acct-3' });
  });
  afterAll(async () => {
    await target?.dispose();
  });

  it('prints a table of running jobs per job name and key, busiest first, after the queues', async () => {
    const ran = await berth(['stats', ...target.flags]);
    expect(ran.code).toBe(0);
    const lines = ran.stdout.split('\n');
    const head = lines.findIndex((line) => /^JOB NAME +CONCURRENCY KEY +RUNNING$/.test(line));
    expect(head).toBeGreaterThan(0);
    expect(lines[head - 1]).toBe('');
    expect(lines[head - 2]).toMatch(/^per minute over the last/);
    expect(lines.slice(head + 1, head + 4)).toEqual([
      expect.stringMatching(/^account\.sync +acct-1 +2$/),
      expect.stringMatching(/^account\.sync +acct-2 +1$/),
      '',
    ]);
    expect(ran.stdout).not.toContain('acct-3');
    expect(ran.stdout).not.toContain('more keys');
  });

  it('--json carries the keys in use as `concurrency`, beside the existing fields', async () => {
    const { doc } = await berthJson<Doc>(['stats', ...target.flags]);
    expect(doc.concurrency).toEqual({
      keys: [
        { name: 'account.sync', key: 'acct-1', running: 2 },
        { name: 'account.sync', key: 'acct-2', running: 1 },
      ],
      keyCount: 2,
      scanned: 4,
      truncated: false,
    });
    expect(doc.queues.map((queue) => queue.queue)).toEqual(['sync']);
    expect(doc.throughput.minutes).toBe(5);
    expect(doc.stale.names).toEqual([]);
  });

  it('--keys 1 shows only the busiest key and says how many more there are', async () => {
    const ran = await berth(['stats', '--keys', '1', ...target.flags]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^account\.sync +acct-1 +2\n… and 1 more keys\n/m);
    expect(ran.stdout).not.toContain('acct-2');
    const { doc } = await berthJson<Doc>(['stats', '--keys', '1', ...target.flags]);
    expect(doc.concurrency.keys).toEqual([{ name: 'account.sync', key: 'acct-1', running: 2 }]);
    expect(doc.concurrency.keyCount).toBe(2);
  });

  it('a --keys outside 1..10000 is a usage error (exit 2)', async () => {
    for (const keys of ['0', '10001', 'all', '1.5']) {
      const ran = await berth(['stats', '--keys', keys, ...target.flags]);
      expect(ran.code, keys).toBe(2);
      expect(ran.stderr, keys).toContain('--keys');
    }
  });

  it('shows job names and keys with their control characters escaped', async () => {
    const hostile = await pgTarget();
    try {
      await hostile.driver.enqueue({
        name: 'sync\u001b[31m',
        queue: 'sync',
        concurrencyKey: 'acct\u001b]0;owned\u0007',
      });
      await hostile.driver.claim({
        queues: ['sync'],
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
        limit: 10,
      });
      const ran = await berth(['stats', ...hostile.flags], { env: { NO_COLOR: '1' } });
      expect(ran.code).toBe(0);
      expect(ran.stdout).toMatch(/^sync\\x1b\[31m +acct\\x1b\]0;owned\\x07 +1$/m);
      expect(ran.stdout).not.toContain('\u001b');
    } finally {
      await hostile.dispose();
    }
  });
});
