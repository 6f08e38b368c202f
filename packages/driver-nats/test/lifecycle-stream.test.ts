import { randomUUID } from 'node:crypto';
import type { Driver } from '@berth/core';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createNatsDriver } from '../src/index.js';
import { natsDriver } from './nats-factory.js';

const disposers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose();
});

async function opened(lifecycleRetention: number) {
  const made = await natsDriver({ lifecycleRetention });
  disposers.push(made.dispose);
  return made;
}

async function claimAndAck(driver: Driver, queue: string, count = 1): Promise<void> {
  const claimed = await driver.claim({
    queues: [queue],
    workerId: 'w',
    visibilityTimeoutMs: 60_000,
    limit: count,
  });
  expect(claimed).toHaveLength(count);
  for (const job of claimed) {
    expect(await driver.ack({ jobId: job.id, workerId: 'w', claim: job.claim })).toBe(true);
  }
}

describe('the lifecycle stream', () => {
  it('positions are its sequences: the newest is a position, one past it or 0 is JOB_PAGE_INVALID', async () => {
    const { driver } = await opened(16);
    await driver.enqueue({ name: 'task', queue: 'q' });
    await claimAndAck(driver, 'q');
    const end = await driver.lifecycle.end();
    expect(end).toBe('2');
    expect(await driver.lifecycle.read({ after: end })).toEqual({
      events: [],
      next: '2',
      caughtUp: true,
    });
    for (const after of ['3', '0', '01']) {
      await expect(driver.lifecycle.read({ after })).rejects.toMatchObject({
        code: 'JOB_PAGE_INVALID',
      });
    }
  });

  it('keeps lifecycleRetention messages, trimming as it writes (trim removes nothing); a process given another retention sets it', async () => {
    const { driver, url, prefix } = await opened(16);
    await driver.enqueueMany(Array.from({ length: 12 }, () => ({ name: 'task', queue: 'q' })));
    await claimAndAck(driver, 'q', 12);
    expect(await driver.lifecycle.trim()).toBe(0);
    const kept = await driver.lifecycle.read();
    expect(kept.events).toHaveLength(16);
    expect(kept.events[0]?.position).toBe('9');
    const nc = await connect({ servers: url });
    try {
      const stream = `berth_${prefix}_lifecycle`;
      const jsm = await jetstreamManager(nc);
      expect((await jsm.streams.info(stream)).config.max_msgs).toBe(16);
      const wider = createNatsDriver({ servers: url, prefix, lifecycleRetention: 20 });
      await wider.check();
      await wider.close();
      expect((await jsm.streams.info(stream)).config.max_msgs).toBe(20);
    } finally {
      await nc.close();
    }
  });

  it('an id enqueued again after its delete writes its events afresh: none is taken for a copy of the first run’s', async () => {
    const { driver } = await opened(16);
    const id = randomUUID();
    await driver.enqueue({ id, name: 'task', queue: 'q' });
    await claimAndAck(driver, 'q');
    await driver.delete(id);
    await driver.enqueue({ id, name: 'task', queue: 'q' });
    await claimAndAck(driver, 'q');
    const { events } = await driver.lifecycle.read({ jobId: id });
    expect(events.map((event) => event.type)).toEqual([
      'active',
      'completed',
      'active',
      'completed',
    ]);
  });
});
