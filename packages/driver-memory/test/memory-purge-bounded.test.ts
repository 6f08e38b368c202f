import type { Driver } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { meterOf } from '../src/meter.js';
import { setup, VT } from './support.js';

const SMALL = 200;
const LARGE = 20_000;
/** A bounded call may examine next to nothing in the small world; a scan would be 100× this. */
const FLOOR = 40;

/** A driver holding `size` completed rows and `size` expired events, and nothing else due. */
async function world(size: number): Promise<Driver> {
  const { driver, clock } = setup();
  for (let made = 0; made < size; made += 1_000) {
    const batch = Math.min(1_000, size - made);
    await driver.enqueueMany(Array.from({ length: batch }, () => ({ name: 'done', queue: 'q' })));
    const claimed = await driver.claim({
      queues: ['q'],
      limit: batch,
      workerId: 'w',
      visibilityTimeoutMs: VT,
    });
    await driver.ackMany(
      claimed.map((job) => ({ fence: { jobId: job.id, workerId: 'w', claim: job.claim } })),
    );
  }
  for (let made = 0; made < size; made += 1) {
    await driver.events.publish(`e-${made % 50}`, made, { ttl: 1 + (made % 7) });
  }
  await clock.advance(10);
  return driver;
}

/** Rows or events `call` examined behind the small and the large world. */
async function visits(call: (driver: Driver) => Promise<unknown>) {
  const counts: number[] = [];
  for (const size of [SMALL, LARGE]) {
    const driver = await world(size);
    const meter = meterOf(driver);
    const before = meter.visits;
    await call(driver);
    counts.push(meter.visits - before);
  }
  const [small = 0, large = 0] = counts;
  return { small, large, bounded: large < 5 * Math.max(small, FLOOR) };
}

describe('memory driver: a bounded purge examines what it removes, not the backlog', () => {
  it('purge with limit 10 removes 10 and examines about as much behind 20,000 rows as behind 200', async () => {
    const seen = await visits(async (driver) => {
      const olderThan = driver.clock.now();
      expect(await driver.purge({ states: ['completed', 'dead'], olderThan, limit: 10 })).toBe(10);
    });
    expect(seen).toMatchObject({ bounded: true });
  }, 60_000);

  it('purgeExpired with limit 10 removes 10 and examines about as much behind 20,000 events as behind 200', async () => {
    const seen = await visits(async (driver) => {
      expect(await driver.events.purgeExpired({ limit: 10 })).toBe(10);
    });
    expect(seen).toMatchObject({ bounded: true });
  }, 60_000);
});
