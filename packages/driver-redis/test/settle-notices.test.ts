import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { keysFor } from '../src/keys.js';
import { adminRedis, redisDriver } from './redis-factory.js';

const admin = adminRedis();

/** The ids of the pub/sub clients of the server now. */
async function pubsubClients(): Promise<Set<string>> {
  const list = (await admin().call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string;
  return new Set(list.split('\n').flatMap((line) => /^id=(\d+)/.exec(line)?.[1] ?? []));
}

const numsub = async (channel: string) => (await admin().pubsub('NUMSUB', channel))[1];

describe('redis settle notices', () => {
  it('the settled channel is subscribed only while someone watches, and close releases it', async () => {
    const { driver, prefix, dispose } = await redisDriver();
    const channel = keysFor(prefix).settled();
    try {
      const first = await driver.watchSettles?.(() => {});
      const second = await driver.watchSettles?.(() => {});
      expect(await numsub(channel)).toBe(1);
      await first?.();
      expect(await numsub(channel)).toBe(1);
      await second?.();
      expect(await numsub(channel)).toBe(0);
      await driver.watchSettles?.(() => {});
      expect(await numsub(channel)).toBe(1);
      await driver.close();
      await expect.poll(() => numsub(channel), { timeout: 2_000 }).toBe(0);
    } finally {
      await dispose();
    }
  });

  it('an ackMany is one message on the settled channel, and none on the wake channel', async () => {
    const { driver, url, prefix, dispose } = await redisDriver();
    const keys = keysFor(prefix);
    const listener = new Redis(url);
    try {
      const ids: string[] = [];
      for (let index = 0; index < 3; index += 1) ids.push((await driver.enqueue({ name: 'x' })).id);
      const jobs = await driver.claim({
        queues: ['default'],
        workerId: 'w',
        limit: 3,
        visibilityTimeoutMs: 60_000,
      });
      // One connection hears both in publish order: the script wakes (if ever) before it tells.
      const heard: [string, string][] = [];
      listener.on('message', (channel: string, message: string) => heard.push([channel, message]));
      await listener.subscribe(keys.wake(), keys.settled());
      const items = jobs.map((job) => ({
        fence: { jobId: job.id, workerId: 'w', claim: job.claim },
      }));
      expect(await driver.ackMany(items)).toEqual([true, true, true]);
      await expect.poll(() => heard.length, { timeout: 2_000 }).toBeGreaterThan(0);
      expect(heard).toHaveLength(1);
      const [channel, message] = heard[0] ?? [];
      expect(channel).toBe(keys.settled());
      expect(message?.split('\0').sort()).toEqual(ids.sort());
    } finally {
      listener.disconnect();
      await dispose();
    }
  });

  it('after the pub/sub connection drops and comes back, the watch hears settles again', async () => {
    const { driver, prefix, dispose } = await redisDriver();
    const channel = keysFor(prefix).settled();
    try {
      const before = await pubsubClients();
      const settled: string[] = [];
      await driver.watchSettles?.((jobIds) => settled.push(...jobIds));
      const ours = [...(await pubsubClients())].filter((id) => !before.has(id));
      expect(ours).toHaveLength(1);
      await admin().call('CLIENT', 'KILL', 'ID', ours[0] ?? '');
      await expect.poll(() => numsub(channel), { timeout: 5_000 }).toBe(1);
      const { id } = await driver.enqueue({ name: 'x' });
      await driver.cancel(id);
      await expect.poll(() => settled, { timeout: 2_000 }).toEqual([id]);
    } finally {
      await dispose();
    }
  });
});
