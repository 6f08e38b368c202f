import { setTimeout as pause } from 'node:timers/promises';
import type { Driver } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { createNatsDriver } from '../src/index.js';
import { decodeJson } from '../src/record.js';
import { subjectsFor } from '../src/subjects.js';
import { dropPrefix, freshPrefix, natsDriver } from './nats-factory.js';

/** Payloads no driver publishes: not JSON, JSON that is not a list, a list that is not strings. */
const GARBAGE = ['not json at all', '{"settled":["x"]}', '[1,2]', 'null', '', '["x",7]'];

async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 5_000) throw new Error('nothing arrived in 5 s');
    await pause(10);
  }
}

/** Enqueues `count` jobs in a queue of their own and claims them all. */
async function running(driver: Driver, count: number) {
  const queue = `q-${freshPrefix()}`;
  for (let made = 0; made < count; made += 1) await driver.enqueue({ name: 'n', queue });
  const claimed = await driver.claim({
    queues: [queue],
    workerId: 'w',
    limit: count,
    visibilityTimeoutMs: 60_000,
  });
  expect(claimed).toHaveLength(count);
  return claimed.map((job) => ({ jobId: job.id, workerId: 'w', claim: job.claim }));
}

describe('nats settle notices', () => {
  it('are one message per batch holding the ids it settled, none for a nack back to work; unreadable payloads are ignored', async () => {
    const { driver, url, prefix, dispose } = await natsDriver();
    // Hears what others publish only: its own garbage is not counted as the driver's.
    const stranger = await connect({ servers: url, noEcho: true });
    try {
      const subject = subjectsFor(prefix).settled;
      const messages: string[][] = [];
      stranger.subscribe(subject, {
        callback: (_error, message) => {
          messages.push(decodeJson(message.data));
        },
      });
      await stranger.flush();
      const heard: (readonly string[])[] = [];
      const unwatch = await driver.watchSettles?.((ids) => heard.push(ids));
      for (const payload of GARBAGE) stranger.publish(subject, payload);
      await stranger.flush();

      const [a, b, c] = await running(driver, 3);
      if (a === undefined || b === undefined || c === undefined) throw new Error('three claimed');
      expect(await driver.ackMany([{ fence: a }, { fence: b }])).toEqual([true, true]);
      expect(await driver.nack(c, { error: { message: 'again' } })).toBe(true);
      await until(() => heard.length > 0);
      await pause(150);
      const batch = [a.jobId, b.jobId].sort();
      expect(messages.map((ids) => [...ids].sort())).toEqual([batch]);
      expect(heard.map((ids) => [...ids].sort())).toEqual([batch]);
      await unwatch?.();
    } finally {
      await stranger.close();
      await dispose();
    }
  });

  it('that cannot be sent leave the settle landed and answered', async () => {
    const url = await serverUrl('nats');
    const prefix = freshPrefix();
    const nc: NatsConnection = await connect({ servers: url });
    const settled = subjectsFor(prefix).settled;
    const publish = nc.publish.bind(nc);
    let refused = 0;
    nc.publish = (subject, ...rest) => {
      if (subject !== settled) return publish(subject, ...rest);
      refused += 1;
      throw new Error('refused by the test');
    };
    const driver = createNatsDriver({ connection: nc, prefix });
    try {
      const [fence] = await running(driver, 1);
      if (fence === undefined) throw new Error('one claimed');
      expect(await driver.ack(fence)).toBe(true);
      expect(refused).toBe(1);
      expect((await driver.get(fence.jobId))?.state).toBe('completed');
    } finally {
      await driver.close();
      await dropPrefix(url, prefix);
      await nc.close();
    }
  });
});
