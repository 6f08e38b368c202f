import { setTimeout as sleep } from 'node:timers/promises';
import { isBerthError } from '@berth/core';
import { eventually, startPrivateServer } from '@berth/test-servers';
import { describe, expect, it } from 'vitest';
import { createRedisDriver } from '../src/index.js';
import { freshPrefix } from './redis-factory.js';

describe('redis driver when the server restarts', () => {
  it('calls in flight during the outage fail DRIVER_UNAVAILABLE, and the driver recovers by itself', async () => {
    // A server of this file's own: the outage disturbs no other test.
    const server = await startPrivateServer('redis');
    const driver = createRedisDriver({ url: server.url(), prefix: freshPrefix() });
    try {
      await driver.enqueue({ name: 'before', queue: 'faults' });
      const woke: string[] = [];
      await driver.subscribe?.(['faults'], (queue) => woke.push(queue));

      // Calls keep going while the server stops: none may hang, and each failure is ours.
      let stop = false;
      const outcomes: unknown[] = [];
      const traffic = (async () => {
        while (!stop) {
          outcomes.push(await driver.enqueue({ name: 'during', queue: 'faults' }).catch((e) => e));
        }
      })();
      await sleep(50);
      await server.stop();
      const refused = await driver
        .claim({ queues: ['faults'], workerId: 'w', visibilityTimeoutMs: 1_000 })
        .catch((error: unknown) => error);
      stop = true;
      await traffic;

      expect(isBerthError(refused, 'DRIVER_UNAVAILABLE')).toBe(true);
      if (isBerthError(refused)) {
        expect(refused.meta).toMatchObject({ driver: 'redis', operation: 'claim' });
        expect(refused.cause).toBeInstanceOf(Error);
      }
      const failures = outcomes.filter((outcome) => outcome instanceof Error);
      expect(failures.length).toBeGreaterThan(0);
      for (const failure of failures)
        expect(isBerthError(failure, 'DRIVER_UNAVAILABLE')).toBe(true);

      await server.start();
      // A restarted server has no scripts loaded: the driver loads them again and carries on.
      const landed = await eventually(() => driver.enqueue({ name: 'after', queue: 'later' }));
      expect(landed.deduped).toBe(false);
      const claimed = await driver.claim({
        queues: ['later'],
        workerId: 'w',
        visibilityTimeoutMs: 1_000,
      });
      expect(claimed.map((job) => job.id)).toEqual([landed.id]);
      // The wake connection subscribed again by itself.
      woke.length = 0;
      await eventually(async () => {
        await driver.enqueue({ name: 'again', queue: 'faults' });
        await sleep(50);
        if (woke.length === 0) throw new Error('no wake after the restart');
      });
    } finally {
      await driver.close();
      await server.dispose();
    }
  }, 60_000);
});
