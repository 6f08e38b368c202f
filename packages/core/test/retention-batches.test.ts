import { describe, expect, it } from 'vitest';
import type { Driver, PurgeRequest } from '../src/index.js';
import { createRetention, isBerthError, MAX_PURGE_LIMIT } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';

const HOUR = 3_600_000;

/** `count` completed rows in queue `bulk`, settled now. */
async function completed(driver: Driver, count: number): Promise<void> {
  await driver.enqueueMany(Array.from({ length: count }, () => ({ name: 'bulk', queue: 'bulk' })));
  const claimed = await driver.claim({
    queues: ['bulk'],
    limit: count,
    workerId: 'w',
    visibilityTimeoutMs: HOUR,
  });
  await driver.ackMany(
    claimed.map((job) => ({ fence: { jobId: job.id, workerId: 'w', claim: job.claim } })),
  );
}

/** The driver with its purge calls recorded: what the sweep asked for, call by call. */
function recorded(driver: Driver) {
  const purges: { limit: number | undefined; removed: number }[] = [];
  const expiries: { limit: number | undefined; removed: number }[] = [];
  const spy: Driver = {
    ...driver,
    purge: async (request: PurgeRequest) => {
      const removed = await driver.purge(request);
      purges.push({ limit: request.limit, removed });
      return removed;
    },
    events: {
      ...driver.events,
      purgeExpired: async (options) => {
        const removed = await driver.events.purgeExpired(options);
        expiries.push({ limit: options?.limit, removed });
        return removed;
      },
    },
  };
  return { spy, purges, expiries };
}

describe('retention batches', () => {
  it('a sweep purges in calls of batchSize until one answers fewer, and counts every row', async () => {
    const { driver, clock } = memoryOnManualClock();
    await completed(driver, 25);
    for (let index = 0; index < 7; index += 1) {
      await driver.events.publish('tick', index, { ttl: 1_000 });
    }
    await clock.advance(2 * HOUR);
    const { spy, purges, expiries } = recorded(driver);
    const retention = createRetention({
      driver: spy,
      keep: { completed: HOUR },
      intervalMs: HOUR,
      batchSize: 10,
    });
    expect(await retention.runOnce()).toEqual({ purged: 25, eventsPurged: 7, lifecycleTrimmed: 0 });
    expect(purges).toEqual([
      { limit: 10, removed: 10 },
      { limit: 10, removed: 10 },
      { limit: 10, removed: 5 },
    ]);
    expect(expiries).toEqual([{ limit: 10, removed: 7 }]);
    expect(await driver.stats()).toEqual([]);
  });

  it('a backlog that is an exact multiple of batchSize ends with one call that answers zero', async () => {
    const { driver, clock } = memoryOnManualClock();
    await completed(driver, 20);
    await clock.advance(2 * HOUR);
    const { spy, purges } = recorded(driver);
    const retention = createRetention({
      driver: spy,
      keep: { completed: HOUR },
      intervalMs: HOUR,
      batchSize: 10,
      eventPurge: false,
    });
    expect(await retention.runOnce()).toEqual({ purged: 20, eventsPurged: 0, lifecycleTrimmed: 0 });
    expect(purges.map((call) => call.removed)).toEqual([10, 10, 0]);
  });

  it('batchSize defaults to 1000 per purge call', async () => {
    const { driver, clock } = memoryOnManualClock();
    await completed(driver, 3);
    await clock.advance(2 * HOUR);
    const { spy, purges, expiries } = recorded(driver);
    await createRetention({ driver: spy, keep: { completed: HOUR }, intervalMs: HOUR }).runOnce();
    expect(purges).toEqual([{ limit: 1_000, removed: 3 }]);
    expect(expiries).toEqual([{ limit: 1_000, removed: 0 }]);
  });

  it('a batchSize that is not an integer in 1..MAX_PURGE_LIMIT is CONFIG_INVALID with a valid example', () => {
    const { driver } = memoryOnManualClock();
    for (const batchSize of [0, -1, 2.5, MAX_PURGE_LIMIT + 1, Number.NaN, '100']) {
      let caught: unknown;
      try {
        createRetention({
          driver,
          keep: { completed: HOUR },
          intervalMs: HOUR,
          batchSize: batchSize as number,
        });
      } catch (error) {
        caught = error;
      }
      expect(isBerthError(caught, 'CONFIG_INVALID')).toBe(true);
      if (!isBerthError(caught, 'CONFIG_INVALID')) continue;
      expect(caught.meta.option).toBe('batchSize');
      expect(caught.fix).toContain('batchSize: 1_000');
    }
  });

  it('stop ends a sweep in flight after its current purge call', async () => {
    const { driver, clock } = memoryOnManualClock();
    await completed(driver, 30);
    await clock.advance(2 * HOUR);
    const { spy, purges } = recorded(driver);
    let stopped: Promise<void> | undefined;
    const retention = createRetention({
      driver: {
        ...spy,
        purge: async (request) => {
          const removed = await spy.purge(request);
          stopped ??= retention.stop();
          return removed;
        },
      },
      keep: { completed: HOUR },
      intervalMs: HOUR,
      batchSize: 10,
      eventPurge: false,
    });
    expect(await retention.runOnce()).toEqual({ purged: 10, eventsPurged: 0, lifecycleTrimmed: 0 });
    await stopped;
    expect(purges).toHaveLength(1);
    expect(await retention.runOnce()).toEqual({ purged: 20, eventsPurged: 0, lifecycleTrimmed: 0 });
  });
});

describe('retention trims the lifecycle stream', () => {
  it('a sweep calls lifecycle.trim with batchSize until a call answers fewer, and counts what went', async () => {
    const { driver } = memoryOnManualClock();
    const backlog = [7, 7, 3];
    const limits: number[] = [];
    const trimming: Driver = {
      ...driver,
      lifecycle: {
        ...driver.lifecycle,
        trim: async (options) => {
          limits.push(options?.limit ?? -1);
          return backlog.shift() ?? 0;
        },
      },
    };
    const retention = createRetention({
      driver: trimming,
      keep: {},
      intervalMs: HOUR,
      batchSize: 7,
    });
    expect(await retention.runOnce()).toEqual({ purged: 0, eventsPurged: 0, lifecycleTrimmed: 17 });
    expect(limits).toEqual([7, 7, 7]);
  });
});
