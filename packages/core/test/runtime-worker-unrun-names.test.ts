import { describe, expect, it } from 'vitest';
import { createClient, createWorker, defineJob, isBerthError } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { recordingLogger } from './support/runtime.js';

const MINUTE = 60_000;
const known = defineJob({ name: 'known', run: () => {} });
const forgotten = defineJob({ name: 'forgotten', run: () => {} });
const elsewhere = defineJob({ name: 'elsewhere', queue: 'other', run: () => {} });

describe('ready jobs of names no worker runs', () => {
  it('the worker warns once per queue and name when a queue it claims holds ready jobs of a name it does not run past staleReadyAfterMs', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { logger, lines } = recordingLogger();
    const client = createClient({ driver });
    await client.enqueue(forgotten, null);
    await client.enqueue(forgotten, null);
    await client.enqueue(elsewhere, null);
    const worker = createWorker({
      driver,
      jobs: [known],
      concurrency: 1,
      visibilityTimeoutMs: 30_000,
      staleReadyAfterMs: 5 * MINUTE,
      logger,
    });
    await worker.start();
    const warnings = () => lines.filter((line) => line.level === 'warn');
    await clock.advance(4 * MINUTE);
    expect(warnings()).toEqual([]);
    await clock.advance(MINUTE);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]?.fields).toMatchObject({
      queue: 'default',
      name: 'forgotten',
      oldestReadyAgeMs: 5 * MINUTE,
    });
    expect(warnings()[0]?.message).toContain('does not run');
    // Later looks, and more jobs of the same name, never warn again.
    await client.enqueue(forgotten, null);
    await clock.advance(20 * MINUTE);
    expect(warnings()).toHaveLength(1);
    await worker.stop({ graceMs: 0 });
  });

  it('jobs of names the worker runs, and young jobs, are never reported', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { logger, lines } = recordingLogger();
    const worker = createWorker({
      driver,
      jobs: [known],
      concurrency: 1,
      visibilityTimeoutMs: 30_000,
      staleReadyAfterMs: 5 * MINUTE,
      logger,
    });
    await clock.advance(6 * MINUTE);
    await worker.start();
    await createClient({ driver }).enqueue(forgotten, null);
    await clock.advance(4 * MINUTE);
    expect(lines.filter((line) => line.level === 'warn')).toEqual([]);
    await worker.stop({ graceMs: 0 });
  });

  it('staleReadyAfterMs under a second or not an integer is CONFIG_INVALID', () => {
    const { driver } = memoryOnManualClock();
    for (const staleReadyAfterMs of [0, 999, 1_500.5, Number.NaN, '5m']) {
      let thrown: unknown;
      try {
        createWorker({
          driver,
          jobs: [known],
          concurrency: 1,
          visibilityTimeoutMs: 30_000,
          staleReadyAfterMs: staleReadyAfterMs as number,
        });
      } catch (error) {
        thrown = error;
      }
      expect(isBerthError(thrown, 'CONFIG_INVALID')).toBe(true);
      expect((thrown as Error).message).toContain('staleReadyAfterMs');
    }
  });

  it('a name behind more ready rows than one look reads is found by a later look, one page per look', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { logger, lines } = recordingLogger();
    const client = createClient({ driver });
    await client.enqueue(forgotten, null);
    // 150 newer ready rows of another name it does not run: the older job is on the second page.
    await driver.enqueueMany(Array.from({ length: 150 }, () => ({ name: 'also.forgotten' })));
    const lists: number[] = [];
    const list = driver.list.bind(driver);
    driver.list = (request) => {
      lists.push(request?.limit ?? 0);
      return list(request);
    };
    const worker = createWorker({
      driver,
      jobs: [known],
      concurrency: 1,
      visibilityTimeoutMs: 30_000,
      staleReadyAfterMs: 5 * MINUTE,
      logger,
    });
    await worker.start();
    const warned = () =>
      lines.filter((line) => line.level === 'warn').map((line) => line.fields?.name);
    await clock.advance(5 * MINUTE);
    expect(warned()).toEqual(['also.forgotten']);
    expect(lists).toEqual([100]);
    await clock.advance(5 * MINUTE);
    expect(warned()).toEqual(['also.forgotten', 'forgotten']);
    expect(lists).toEqual([100, 100]);
    await worker.stop({ graceMs: 0 });
  });
});
