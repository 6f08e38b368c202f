import { execSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { isBerthError } from '@berth/core';
import { answers, startCommand } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { redisDriver } from './redis-factory.js';

/** Stops the server the way an outage would: no save, every connection dropped. */
async function shutDown(url: string): Promise<void> {
  const admin = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
  admin.on('error', () => {});
  // The server closes the connection instead of answering SHUTDOWN.
  await admin.call('SHUTDOWN', 'NOSAVE').catch(() => {});
  admin.disconnect();
  for (let tries = 0; tries < 100 && (await answers(url, 200)); tries += 1) await sleep(50);
}

/** Starts the local server with the machine's own start line and waits until it answers. */
async function restart(url: string): Promise<void> {
  if (await answers(url, 200)) return;
  const { hostname } = new URL(url);
  if (hostname !== '127.0.0.1' && hostname !== 'localhost') {
    throw new Error(`the fault test restarts only the local server; ${url} is not one`);
  }
  execSync(startCommand('redis'), { stdio: 'ignore' });
  for (let tries = 0; tries < 200; tries += 1) {
    if (await answers(url, 200)) return;
    await sleep(50);
  }
  throw new Error(`redis did not come back at ${url} after: ${startCommand('redis')}`);
}

/** Retries `call` until it answers (the driver reconnecting by itself), failing after 15 s. */
async function eventually<T>(call: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(100);
    }
  }
}

describe('redis driver when the server restarts', () => {
  it('calls in flight during the outage fail DRIVER_UNAVAILABLE, and the driver recovers by itself', async () => {
    const { driver, url, dispose } = await redisDriver();
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
      await shutDown(url);
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

      await restart(url);
      // The server kept nothing (--save ""): the driver reloads its scripts and carries on.
      const landed = await eventually(() => driver.enqueue({ name: 'after', queue: 'faults' }));
      expect(landed.deduped).toBe(false);
      const claimed = await driver.claim({
        queues: ['faults'],
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
      await restart(url);
      await dispose();
    }
  }, 60_000);
});
