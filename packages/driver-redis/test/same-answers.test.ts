import { randomUUID } from 'node:crypto';
import { createManualClock, type Driver, type JobRecord, type ListRequest } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { expect, it } from 'vitest';
import { redisDriver } from './redis-factory.js';

const T0 = Date.UTC(2026, 0, 1);

/** The same calls on both drivers; answers compared with run ids (random per driver) left out. */
async function both<T>(
  drivers: readonly [Driver, Driver],
  call: (driver: Driver) => Promise<T>,
): Promise<{ redis: T; memory: T }> {
  return { redis: await call(drivers[0]), memory: await call(drivers[1]) };
}

const strip = (jobs: readonly JobRecord[]) => jobs.map(({ runId: _runId, ...rest }) => rest);

/** Every page of `request` forward, then every page back from the last one, as two lists. */
async function walkAll(driver: Driver, request: ListRequest) {
  const forward: JobRecord[] = [];
  let after: string | undefined;
  let last: string | undefined;
  do {
    const page = await driver.list({ ...request, limit: 120, ...(after ? { after } : {}) });
    forward.push(...page.jobs);
    after = page.next;
    last = page.prev ?? last;
  } while (after !== undefined);
  const back: JobRecord[] = [];
  for (let before = last; before !== undefined; ) {
    const page = await driver.list({ ...request, limit: 120, before });
    back.unshift(...page.jobs);
    before = page.prev;
  }
  return { forward, back };
}

it('over 1,500 rows in every state, list pages, filters and stats answer as memory does', async () => {
  const clock = createManualClock(T0);
  const { driver: redis, dispose } = await redisDriver({ clock });
  const memory = createMemoryDriver({ clock });
  const drivers = [redis, memory] as const;
  try {
    const requests = Array.from({ length: 1_500 }, (_, index) => ({
      id: randomUUID(),
      name: `job-${index % 4}`,
      queue: `q${index % 3}`,
      priority: index % 5,
      ...(index % 7 === 0 ? { tenantId: `t${index % 2}` } : {}),
      // A third wait: some come due when the clock moves, some stay in the future.
      ...(index % 3 === 0 ? { runAt: T0 + (index % 2 === 0 ? 500 : 50_000) } : {}),
    }));
    for (let at = 0; at < requests.length; at += 500) {
      await both(drivers, (driver) => driver.enqueueMany(requests.slice(at, at + 500)));
      await clock.advance(1);
    }
    // Claim a share, then settle them every which way.
    const claimed = await both(drivers, (driver) =>
      driver.claim({ queues: ['q1', 'q2'], limit: 400, workerId: 'w', visibilityTimeoutMs: 1_000 }),
    );
    expect(claimed.redis.map((job) => job.id)).toEqual(claimed.memory.map((job) => job.id));
    for (const [index, job] of claimed.redis.entries()) {
      const fence = { jobId: job.id, workerId: 'w', claim: job.claim };
      await both(drivers, async (driver) => {
        if (index % 4 === 0) return driver.ack(fence, { result: index });
        if (index % 4 === 1) return driver.nack(fence, { error: { message: 'no' }, final: true });
        if (index % 4 === 2) return driver.suspend(fence, { until: T0 + 800, waitFor: 'go' });
        if (index % 8 === 3) return driver.suspend(fence, { until: T0 + 90_000 });
        return false;
      });
    }
    await clock.advance(600);
    await both(drivers, (driver) => driver.events.publish('go', { n: 1 }));

    for (const request of [
      {},
      { state: 'ready' },
      { state: 'delayed' },
      { state: 'running' },
      { state: 'suspended' },
      { state: 'completed', queue: 'q1' },
      { queue: 'q2', name: 'job-1' },
      { tenantId: 't1' },
      { name: 'job-3', state: 'ready' },
    ] as const) {
      const pages = await both(drivers, (driver) => walkAll(driver, request));
      expect(pages.memory.forward.length, JSON.stringify(request)).toBeGreaterThan(0);
      expect(strip(pages.redis.forward), JSON.stringify(request)).toEqual(
        strip(pages.memory.forward),
      );
      expect(strip(pages.redis.back), JSON.stringify(request)).toEqual(strip(pages.memory.back));
    }
    const stats = await both(drivers, (driver) => driver.stats());
    expect(stats.redis).toEqual(stats.memory);
  } finally {
    await memory.close();
    await dispose();
  }
}, 60_000);
