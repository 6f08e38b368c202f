import { createManualClock, type Driver } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNatsDriver } from '../src/index.js';
import { dropPrefix, freshPrefix } from './nats-factory.js';

const T0 = Date.UTC(2026, 0, 1);
const SMALL = 100;
const LARGE = 5_000;

/**
 * No call's cost may grow with the backlog: the same calls over a small and a 50x larger backlog
 * (ready rows, rows not due for an hour, settled rows) send the same number of messages, since
 * every backlog question is answered from the in-process index.
 */
interface World {
  readonly driver: Driver;
  readonly nc: NatsConnection;
  readonly prefix: string;
  /** Messages sent so far, but the lifecycle repair pass's (a timer's, whatever the calls). */
  readonly sent: () => number;
}

let url: string;
const worlds: World[] = [];

async function world(backlog: number): Promise<World> {
  const nc = await connect({ servers: url });
  let repairs = 0;
  const publish = nc.publish.bind(nc);
  nc.publish = (subject, ...rest) => {
    if (subject.endsWith('.v.lifecycle')) repairs += 1;
    publish(subject, ...rest);
  };
  const prefix = freshPrefix();
  const driver = createNatsDriver({ connection: nc, prefix, clock: createManualClock(T0) });
  for (let at = 0; at < backlog; at += 1_000) {
    const count = Math.min(1_000, backlog - at);
    await driver.enqueueMany(
      Array.from({ length: count }, (_, index) => ({
        name: 'work',
        priority: index % 3,
        ...(index % 2 === 0 ? { runAt: T0 + 3_600_000 } : {}),
      })),
    );
  }
  const made = { driver, nc, prefix, sent: () => nc.stats().outMsgs - repairs };
  worlds.push(made);
  return made;
}

/** Messages the connection sent while `call` ran. */
async function sent(made: World, call: (driver: Driver) => Promise<unknown>): Promise<number> {
  await made.driver.stats();
  const before = made.sent();
  await call(made.driver);
  return made.sent() - before;
}

beforeAll(async () => {
  url = await serverUrl('nats');
});

afterAll(async () => {
  for (const made of worlds) {
    await made.driver.close();
    await made.nc.close();
    await dropPrefix(url, made.prefix);
  }
});

describe('nats driver with a large backlog', () => {
  it('a claim, settles, a list page, stats, a publish and a purge send as many messages with a 50x backlog', async () => {
    const [small, large] = [await world(SMALL), await world(LARGE)];
    const calls: readonly [string, (driver: Driver) => Promise<unknown>][] = [
      [
        'claim 10 and ack them',
        async (driver) => {
          const jobs = await driver.claim({
            queues: ['default'],
            limit: 10,
            workerId: 'w',
            visibilityTimeoutMs: 60_000,
          });
          expect(jobs).toHaveLength(10);
          await driver.ackMany(
            jobs.map((job) => ({ fence: { jobId: job.id, workerId: 'w', claim: job.claim } })),
          );
        },
      ],
      ['a list page', (driver) => driver.list({ limit: 20 })],
      ['a filtered list page', (driver) => driver.list({ state: 'delayed', limit: 20 })],
      ['stats', (driver) => driver.stats()],
      ['a publish', (driver) => driver.events.publish('tick', {})],
      [
        'a purge of what settled',
        (driver) => driver.purge({ states: ['completed'], olderThan: T0 + 1 }),
      ],
    ];
    for (const [what, call] of calls) {
      expect(await sent(large, call), what).toBe(await sent(small, call));
    }
  }, 120_000);
});
