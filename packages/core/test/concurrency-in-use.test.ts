import { describe, expect, it } from 'vitest';
import { concurrencyInUse, type Driver, instrumentQueues } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { meterWithReader, points } from './support/metrics.js';

const QUEUE = 'keyed';

/** Enqueues `count` jobs of `name` under `key` (none: no key) and claims them all: running. */
async function running(
  driver: Driver,
  name: string,
  key: string | undefined,
  count: number,
  tenantId?: string,
): Promise<void> {
  for (let n = 0; n < count; n += 1) {
    await driver.enqueue({
      name,
      queue: QUEUE,
      ...(key === undefined ? {} : { concurrencyKey: key }),
      ...(tenantId === undefined ? {} : { tenantId }),
    });
  }
  const claimed = await driver.claim({
    queues: [QUEUE],
    workerId: 'w1',
    visibilityTimeoutMs: 60_000,
    limit: count,
  });
  expect(claimed).toHaveLength(count);
}

/** A driver that counts its `list` calls. */
function countingLists(driver: Driver): { driver: Driver; lists: () => number } {
  let lists = 0;
  return {
    driver: {
      ...driver,
      list: (request) => {
        lists += 1;
        return driver.list(request);
      },
    },
    lists: () => lists,
  };
}

describe('concurrency in use', () => {
  it('counts running jobs per job name and concurrency key, busiest first; ready and unkeyed jobs are not counted', async () => {
    const { driver } = memoryOnManualClock();
    await running(driver, 'sync', 'acct-1', 3);
    await running(driver, 'sync', 'acct-2', 1);
    await running(driver, 'mail', 'acct-1', 2);
    await running(driver, 'report', undefined, 2);
    await driver.enqueue({ name: 'sync', queue: QUEUE, concurrencyKey: 'acct-3' });
    expect(await concurrencyInUse(driver)).toEqual({
      keys: [
        { name: 'sync', key: 'acct-1', running: 3 },
        { name: 'mail', key: 'acct-1', running: 2 },
        { name: 'sync', key: 'acct-2', running: 1 },
      ],
      keyCount: 3,
      scanned: 8,
      truncated: false,
    });
  });

  it('answers the top keys with the count of all, and reads at most maxRunning running jobs, saying when it stopped short', async () => {
    const { driver } = memoryOnManualClock();
    for (const [key, count] of [
      ['a', 3],
      ['b', 2],
      ['c', 1],
    ] as const) {
      await running(driver, 'sync', key, count);
    }
    const top = await concurrencyInUse(driver, { top: 1 });
    expect(top).toMatchObject({ keys: [{ key: 'a', running: 3 }], keyCount: 3 });
    const { driver: counted, lists } = countingLists(driver);
    const short = await concurrencyInUse(counted, { maxRunning: 4 });
    expect(short).toMatchObject({ scanned: 4, truncated: true });
    expect(short.keys.reduce((sum, use) => sum + use.running, 0)).toBe(4);
    expect(lists()).toBe(1);
  });

  it("with tenantId counts only that tenant's running jobs", async () => {
    const { driver } = memoryOnManualClock();
    await running(driver, 'sync', 'acct-1', 2, 't1');
    await running(driver, 'sync', 'acct-1', 1, 't2');
    expect((await concurrencyInUse(driver, { tenantId: 't2' })).keys).toEqual([
      { name: 'sync', key: 'acct-1', running: 1 },
    ]);
    expect((await concurrencyInUse(driver)).keys).toEqual([
      { name: 'sync', key: 'acct-1', running: 3 },
    ]);
  });

  it('refuses a top or maxRunning that is not a whole number in range with CONFIG_INVALID naming it', async () => {
    const { driver } = memoryOnManualClock();
    await expect(concurrencyInUse(driver, { top: 0 })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      meta: { option: 'top' },
    });
    await expect(concurrencyInUse(driver, { maxRunning: 1.5 })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      meta: { option: 'maxRunning' },
    });
  });

  it('queue metrics report berth.concurrency.in_use per job name and key; concurrencyKeys: false reads no running jobs', async () => {
    const { driver } = memoryOnManualClock();
    await running(driver, 'sync', 'acct-1', 2);
    await running(driver, 'sync', 'acct-2', 1);
    const { meter, collect } = meterWithReader();
    const handle = await instrumentQueues({ driver, meter });
    expect(points(await collect(), 'berth.concurrency.in_use')).toEqual([
      { attributes: { 'berth.job.name': 'sync', 'berth.concurrency.key': 'acct-1' }, value: 2 },
      { attributes: { 'berth.job.name': 'sync', 'berth.concurrency.key': 'acct-2' }, value: 1 },
    ]);
    handle.stop();

    const { driver: counted, lists } = countingLists(driver);
    const off = meterWithReader();
    await instrumentQueues({ driver: counted, meter: off.meter, concurrencyKeys: false });
    expect(points(await off.collect(), 'berth.concurrency.in_use')).toEqual([]);
    expect(lists()).toBe(0);
    await expect(
      instrumentQueues({ driver, meter: off.meter, concurrencyKeys: { top: -1 } }),
    ).rejects.toMatchObject({ code: 'CONFIG_INVALID', meta: { option: 'top' } });
  });
});
