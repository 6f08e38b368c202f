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
});
