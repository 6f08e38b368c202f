import { describe, expect, it } from 'vitest';
import { driverNotMigrated } from '../src/driver.js';
import { createScheduler, createWorker, type Driver, defineJob } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';

const quiet = () => {};
const logger = { debug: quiet, info: quiet, warn: quiet, error: quiet };
const task = defineJob({ name: 'task', run: async () => {} });

/** A memory driver whose check fails as an unmigrated backend's would, counting claims. */
function unmigratedDriver(): { driver: Driver; claims: () => number } {
  const { driver } = memoryOnManualClock();
  let claims = 0;
  const failing: Driver = {
    ...driver,
    check: () =>
      Promise.reject(
        driverNotMigrated({ driver: 'memory', schema: 'berth', version: 0, required: 1 }),
      ),
    claim: (request) => {
      claims += 1;
      return driver.claim(request);
    },
  };
  return { driver: failing, claims: () => claims };
}

describe('start checks the driver first', () => {
  it('worker.start() rejects with the check’s error and never claims', async () => {
    const { driver, claims } = unmigratedDriver();
    const worker = createWorker({
      driver,
      jobs: [task],
      concurrency: 1,
      visibilityTimeoutMs: 30_000,
      logger,
    });
    await expect(worker.start()).rejects.toMatchObject({ code: 'DRIVER_NOT_MIGRATED' });
    expect(claims()).toBe(0);
    await worker.stop({ graceMs: 0 });
  });

  it('scheduler.start() rejects with the check’s error and enqueues nothing', async () => {
    const { driver } = unmigratedDriver();
    const scheduler = createScheduler({
      driver,
      schedules: [{ name: 's', cron: '* * * * *', job: task }],
      logger,
    });
    await expect(scheduler.start()).rejects.toMatchObject({ code: 'DRIVER_NOT_MIGRATED' });
    expect(scheduler.isLeader()).toBe(false);
    expect((await driver.list()).jobs).toEqual([]);
    await scheduler.stop();
  });

  it('a worker stopped while its check is out never starts claiming', async () => {
    const { driver: memory } = memoryOnManualClock();
    let release = () => {};
    let claims = 0;
    const slow: Driver = {
      ...memory,
      check: () => new Promise<void>((resolve) => (release = resolve)),
      claim: (request) => {
        claims += 1;
        return memory.claim(request);
      },
    };
    const worker = createWorker({
      driver: slow,
      jobs: [task],
      concurrency: 1,
      visibilityTimeoutMs: 30_000,
      logger,
    });
    const starting = worker.start();
    await worker.stop({ graceMs: 0 });
    release();
    await starting;
    expect(claims).toBe(0);
  });
});
