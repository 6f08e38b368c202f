import { setTimeout as sleep } from 'node:timers/promises';
import type { Driver } from '@berth/core';
import { type RedisReplicaSet, startRedisReplicaSet } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedisDriver } from '../src/index.js';
import { freshPrefix } from './redis-factory.js';

/** Calls `call` until it answers, giving up after `ms`; answers the result and when it came. */
async function firstSuccess<T>(
  call: () => Promise<T>,
  ms: number,
): Promise<{ value: T; at: number }> {
  const start = Date.now();
  for (;;) {
    try {
      return { value: await call(), at: Date.now() - start };
    } catch (error) {
      if (Date.now() - start > ms) throw error;
      await sleep(50);
    }
  }
}

const opened: { set?: RedisReplicaSet; driver?: Driver }[] = [];
afterEach(async () => {
  for (const { set, driver } of opened.splice(0)) {
    await driver?.close();
    await set?.dispose();
  }
});

async function sentinelDriver() {
  const set = await startRedisReplicaSet();
  const prefix = freshPrefix();
  const driver = createRedisDriver({
    sentinels: set.sentinelAddresses,
    name: set.name,
    prefix,
    commandTimeoutMs: 1_000,
  });
  opened.push({ set, driver });
  return { set, driver, prefix };
}

async function onServer<T>(port: number, call: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true });
  await redis.connect();
  try {
    return await call(redis);
  } finally {
    redis.disconnect();
  }
}

/** The state of job `id` as the server on `port` holds it. */
const stateOn = (port: number, prefix: string, id: string): Promise<string | null> =>
  onServer(port, (redis) => redis.hget(`{${prefix}}:job:${id}`, 'state'));

const enqueue = (driver: Driver) => () => driver.enqueue({ name: 'job', queue: 'sentinel' });

/** Until the sentinels name another master than `port`; answers the new one's port. */
async function failedOverFrom(set: RedisReplicaSet, port: number): Promise<number> {
  const { value } = await firstSuccess(async () => {
    const master = await set.masterPort();
    if (master === port) throw new Error(`the sentinels still name ${port}`);
    return master;
  }, 30_000);
  return value;
}

describe('redis driver through Redis Sentinel', () => {
  it('after the primary is killed, the driver and its wake-ups follow the new master by themselves', async () => {
    const { set, driver } = await sentinelDriver();
    const first = await driver.enqueue({ name: 'job', queue: 'sentinel' });
    const woke: string[] = [];
    await driver.subscribe?.(['after'], (queue) => woke.push(queue));

    set.primary.signal('SIGKILL');
    const { value: landed, at } = await firstSuccess(enqueue(driver), 30_000);
    expect(landed.deduped).toBe(false);
    // The replica, promoted: the job enqueued before the kill made it there.
    const master = await failedOverFrom(set, set.primary.port);
    expect(master).toBe(set.replicas[0]?.port);
    expect(await driver.get(first.id)).toMatchObject({ id: first.id, state: 'ready' });
    console.info(`first enqueue answered ${at} ms after the primary was killed`);

    await firstSuccess(async () => {
      await driver.enqueue({ name: 'job', queue: 'after' });
      if (!woke.includes('after')) throw new Error('no wake-up yet');
    }, 15_000);
  });

  it('with the primary frozen (SIGSTOP), the driver moves to the new master instead of waiting for it', async () => {
    const { set, driver, prefix } = await sentinelDriver();
    await driver.enqueue({ name: 'job', queue: 'sentinel' });

    set.primary.signal('SIGSTOP');
    try {
      const { value: landed, at } = await firstSuccess(enqueue(driver), 30_000);
      // The primary is still frozen: the promoted replica answered.
      const master = await failedOverFrom(set, set.primary.port);
      expect(await stateOn(master, prefix, landed.id)).toBe('ready');
      console.info(`first enqueue answered ${at} ms after the primary froze`);
    } finally {
      set.primary.signal('SIGCONT');
    }
  });

  it('a write a demoted primary refuses (READONLY) is sent again to the master the sentinels name now', async () => {
    const { set, driver, prefix } = await sentinelDriver();
    await driver.enqueue({ name: 'job', queue: 'sentinel' });
    const replica = set.replicas[0]?.port ?? 0;

    // Roles swapped by hand, the sentinels told afresh: nothing closes the driver's connection.
    await onServer(replica, (redis) => redis.call('REPLICAOF', 'NO', 'ONE'));
    await onServer(set.primary.port, (redis) =>
      redis.call('REPLICAOF', '127.0.0.1', String(replica)),
    );
    for (const sentinel of set.sentinels) {
      await onServer(sentinel.port, async (redis) => {
        await redis.call('SENTINEL', 'REMOVE', set.name);
        await redis.call('SENTINEL', 'MONITOR', set.name, '127.0.0.1', String(replica), '2');
      });
    }

    const landed = await driver.enqueue({ name: 'job', queue: 'sentinel' });
    expect(await stateOn(replica, prefix, landed.id)).toBe('ready');
  });
});
