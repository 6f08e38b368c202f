import { randomUUID } from 'node:crypto';
import { serverUrl } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawMonitor } from './raw-monitor.js';
import { redisDriver } from './redis-factory.js';

const BATCH = 200;

/**
 * Counts the commands the server runs inside scripts on one prefix, through MONITOR (it shows
 * what a script calls, marked `lua`): other clients of a shared server never count.
 */
async function openCounter(url: string, prefix: string) {
  const admin = new Redis(url);
  const tag = `{${prefix}}`;
  const byCommand = new Map<string, number>();
  let marks = 0;
  const monitor = await rawMonitor(url, ({ args, source }) => {
    if (!args.some((arg) => arg.includes(tag))) return;
    if (args[0]?.toLowerCase() === 'exists' && args[1] === `${tag}:count-mark`) {
      marks += 1;
      return;
    }
    if (source !== 'lua') return;
    const command = (args[0] ?? '').toLowerCase();
    byCommand.set(command, (byCommand.get(command) ?? 0) + 1);
  });
  /** Runs `work`, then answers the script commands it caused (MONITOR lags; a mark closes it). */
  const count = async (work: () => Promise<unknown>) => {
    byCommand.clear();
    await work();
    const wanted = marks + 1;
    await admin.exists(`${tag}:count-mark`);
    while (marks < wanted) await new Promise((resolve) => setTimeout(resolve, 5));
    const total = [...byCommand.values()].reduce((sum, value) => sum + value, 0);
    return { total, byCommand: Object.fromEntries(byCommand) };
  };
  const close = () => {
    monitor.close();
    admin.disconnect();
  };
  return { count, close };
}

describe('redis scripts run a bounded number of commands per job, not one per index', () => {
  let url: string;
  beforeAll(async () => {
    url = await serverUrl('redis');
  });
  const open: Array<() => void> = [];
  afterAll(() => {
    for (const close of open) close();
  });

  it(`a batch of ${BATCH} costs one command per job to enqueue, three to claim and four to ack (the row read, the row written, its attempt record, its lifecycle event), plus a few per batch`, async () => {
    const { driver, prefix, dispose } = await redisDriver();
    const counter = await openCounter(url, prefix);
    open.push(counter.close);
    try {
      const enqueued = await counter.count(() =>
        driver.enqueueMany(
          Array.from({ length: BATCH }, (_, index) => ({ name: 'job', payload: { index } })),
        ),
      );
      // A job hash each; every index takes one command per batch.
      expect(enqueued.byCommand.hset).toBe(BATCH);
      expect(enqueued.total).toBeLessThanOrEqual(BATCH + 12);

      let claimedIds: { jobId: string; workerId: string; claim: number }[] = [];
      const claimed = await counter.count(async () => {
        const jobs = await driver.claim({
          queues: ['default'],
          workerId: `w-${randomUUID()}`,
          visibilityTimeoutMs: 60_000,
          limit: BATCH,
        });
        claimedIds = jobs.map((job) => ({
          jobId: job.id,
          workerId: job.claimedBy,
          claim: job.claim,
        }));
      });
      expect(claimedIds).toHaveLength(BATCH);
      // Per job: read the row, write it back, tell it on the lifecycle stream.
      expect(claimed.byCommand.hgetall).toBe(BATCH);
      expect(claimed.byCommand.xadd).toBe(BATCH);
      expect(claimed.total).toBeLessThanOrEqual(3 * BATCH + 20);

      const acked = await counter.count(() =>
        driver.ackMany(claimedIds.map((fence) => ({ fence }))),
      );
      // Per job: read the fields a settle needs, write the settled ones, append the attempt record,
      // tell it on the lifecycle stream.
      expect(acked.byCommand.hmget).toBe(BATCH);
      expect(acked.byCommand.rpush).toBe(BATCH);
      expect(acked.byCommand.xadd).toBe(BATCH);
      // The only HDEL is the batch's one on the worker's claims hash, none per row.
      expect(acked.byCommand.hdel).toBe(1);
      expect(acked.total).toBeLessThanOrEqual(4 * BATCH + 12);

      expect((await driver.stats()).find((row) => row.queue === 'default')?.counts).toMatchObject({
        completed: BATCH,
        running: 0,
        ready: 0,
      });
    } finally {
      await dispose();
    }
  }, 60_000);
});
