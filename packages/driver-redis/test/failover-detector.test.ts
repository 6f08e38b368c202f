import type { Driver } from '@berth/core';
import {
  type CutProxy,
  cutProxy,
  dropRedisPrefix,
  eventually,
  pollUntil,
  serverUrl,
} from '@berth/test-servers';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedisDriver } from '../src/index.js';
import { type FakeSentinel, fakeSentinel } from './fake-sentinel.js';
import { freshPrefix } from './redis-factory.js';

const opened: {
  driver?: Driver;
  sentinel?: FakeSentinel;
  proxy?: CutProxy;
  drop?: () => Promise<void>;
}[] = [];
afterEach(async () => {
  for (const { driver, sentinel, proxy, drop } of opened.splice(0)) {
    await driver?.close();
    await sentinel?.close();
    await proxy?.close();
    await drop?.();
  }
});

describe('redis driver through Redis Sentinel: the failover detector', () => {
  it('a +switch-master heard while a reconnect is asking the sentinels does not end the connections for good', async () => {
    // The master (the shared server) behind a proxy that can make it go away, named by a
    // sentinel the test steers.
    const url = await serverUrl('redis');
    const proxy = await cutProxy(Number(new URL(url).port || 6379));
    const sentinel = await fakeSentinel({ host: '127.0.0.1', port: proxy.port });
    const prefix = freshPrefix();
    const driver = createRedisDriver({
      sentinels: [{ host: '127.0.0.1', port: sentinel.port }],
      name: 'berth-set',
      prefix,
      commandTimeoutMs: 1_000,
    });
    opened.push({ driver, sentinel, proxy, drop: () => dropRedisPrefix(url, prefix) });
    await driver.enqueue({ name: 'job', queue: 'before' });
    const woke: string[] = [];
    await driver.subscribe?.(['after'], (queue) => woke.push(queue));
    // Both connections (commands, wake-ups) have a failover detector subscribed.
    await pollUntil(() => sentinel.subscribers() === 2, { what: 'two failover detectors' });

    // The master goes away; both connections reconnect and ask the sentinel, which is slow to
    // answer (a loaded machine).
    sentinel.hold();
    proxy.refuse();
    await pollUntil(() => sentinel.pending() === 2, { what: 'both reconnects asking' });
    proxy.accept();
    // The failover is announced now: the detectors of the connections that closed hear it (and
    // close their own sentinel connections) while the reconnects still wait for their answer.
    sentinel.switchMaster();
    await pollUntil(() => sentinel.subscribers() === 0, { what: 'the detectors acting' });
    sentinel.release();

    const landed = await eventually(() => driver.enqueue({ name: 'job', queue: 'before' }), {
      withinMs: 10_000,
    });
    expect(landed.deduped).toBe(false);
    await eventually(
      async () => {
        await driver.enqueue({ name: 'job', queue: 'after' });
        if (!woke.includes('after')) throw new Error('no wake-up yet');
      },
      { withinMs: 10_000 },
    );
  });

  it('a sentinel that takes the question and never answers does not stall the connection: the next sentinel names the master', async () => {
    const url = await serverUrl('redis');
    const port = Number(new URL(url).port || 6379);
    const frozen = await fakeSentinel({ host: '127.0.0.1', port });
    const healthy = await fakeSentinel({ host: '127.0.0.1', port });
    frozen.hold();
    const prefix = freshPrefix();
    const driver = createRedisDriver({
      sentinels: [
        { host: '127.0.0.1', port: frozen.port },
        { host: '127.0.0.1', port: healthy.port },
      ],
      name: 'berth-set',
      prefix,
      commandTimeoutMs: 500,
    });
    opened.push({ driver, sentinel: frozen, drop: () => dropRedisPrefix(url, prefix) });
    opened.push({ sentinel: healthy });
    const landed = await eventually(() => driver.enqueue({ name: 'job', queue: 'q' }), {
      withinMs: 10_000,
    });
    expect(landed.deduped).toBe(false);
    expect(frozen.pending()).toBeGreaterThan(0);
  });
});
