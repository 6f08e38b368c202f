import { describe, expect, it } from 'vitest';
import type { BackgroundLogger, Driver, LogFields } from '../src/index.js';
import { createRetention, isBerthError } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';

const HOUR = 3_600_000;

function recordingLogger(): BackgroundLogger & { lines: [string, LogFields | undefined][] } {
  const lines: [string, LogFields | undefined][] = [];
  const push = (message: string, fields?: LogFields) => {
    lines.push([message, fields]);
  };
  return { lines, info: push, warn: push, error: push };
}

/** Enqueues a job and settles it: `completed` by ack, `dead` by a final nack, or `cancelled`. */
async function settled(driver: Driver, how: 'completed' | 'dead' | 'cancelled'): Promise<string> {
  const { id } = await driver.enqueue({ name: `job-${how}`, queue: 'sweep' });
  if (how === 'cancelled') {
    await driver.cancel(id);
    return id;
  }
  const [job] = await driver.claim({
    queues: ['sweep'],
    workerId: 'w',
    visibilityTimeoutMs: 1_000,
  });
  if (job === undefined) throw new Error('expected a claim');
  const fence = { jobId: job.id, workerId: 'w', claim: job.claim };
  if (how === 'completed') await driver.ack(fence);
  else await driver.nack(fence, { error: { message: 'gave up' }, final: true });
  return id;
}

describe('retention', () => {
  it('purges terminal jobs past their state keep, counts them and logs the sweep', async () => {
    const { driver, clock } = memoryOnManualClock();
    const oldCompleted = await settled(driver, 'completed');
    const oldDead = await settled(driver, 'dead');
    const oldCancelled = await settled(driver, 'cancelled');
    await clock.advance(2 * HOUR);
    const youngCompleted = await settled(driver, 'completed');
    const { id: live } = await driver.enqueue({ name: 'still-work', queue: 'sweep' });
    await clock.advance(1);
    const logger = recordingLogger();
    const retention = createRetention({
      driver,
      keep: { completed: HOUR, dead: HOUR },
      intervalMs: HOUR,
      logger,
    });

    const sweep = await retention.runOnce();

    expect(sweep).toEqual({ purged: 2, eventsPurged: 0, lifecycleTrimmed: 0 });
    expect(await driver.get(oldCompleted)).toBeUndefined();
    expect(await driver.get(oldDead)).toBeUndefined();
    for (const id of [oldCancelled, youngCompleted, live]) {
      expect(await driver.get(id)).toBeDefined();
    }
    expect(logger.lines).toContainEqual([
      'retention sweep',
      { purged: 2, eventsPurged: 0, lifecycleTrimmed: 0, keepMs: { completed: HOUR, dead: HOUR } },
    ]);
  });

  it('removes the steps of the jobs it purges', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { id, runId } = await driver.enqueue({ name: 'with-steps', queue: 'sweep' });
    const [job] = await driver.claim({
      queues: ['sweep'],
      workerId: 'w',
      visibilityTimeoutMs: 1_000,
    });
    if (job === undefined) throw new Error('expected a claim');
    const fence = { jobId: id, workerId: 'w', claim: job.claim };
    const now = clock.now();
    await driver.steps.put(
      {
        runId,
        name: 'a',
        status: 'completed',
        output: 1,
        attempts: 1,
        startedAt: now,
        updatedAt: now,
      },
      fence,
    );
    await driver.ack(fence);
    await clock.advance(10);

    await createRetention({ driver, keep: { completed: 0 }, intervalMs: 1_000 }).runOnce();

    expect(await driver.steps.list(runId)).toEqual([]);
  });

  it('counts the expired events it purges, and leaves events alone with eventPurge false', async () => {
    const { driver, clock } = memoryOnManualClock();
    await driver.events.publish('short', null, { ttl: 1_000 });
    await driver.events.publish('short', null, { ttl: 1_000 });
    await driver.events.publish('long', null, { ttl: 10 * HOUR });
    await clock.advance(1_000);

    const without = await createRetention({
      driver,
      keep: {},
      eventPurge: false,
      intervalMs: HOUR,
    }).runOnce();
    const withEvents = await createRetention({ driver, keep: {}, intervalMs: HOUR }).runOnce();

    expect(without).toEqual({ purged: 0, eventsPurged: 0, lifecycleTrimmed: 0 });
    expect(withEvents).toEqual({ purged: 0, eventsPurged: 2, lifecycleTrimmed: 0 });
    expect((await driver.events.list()).map((event) => event.name)).toEqual(['long']);
  });

  it('sweeps on start and then every intervalMs until stopped', async () => {
    const { driver, clock } = memoryOnManualClock();
    const logger = recordingLogger();
    const retention = createRetention({ driver, keep: { cancelled: 0 }, intervalMs: HOUR, logger });
    const sweeps = () => logger.lines.filter(([message]) => message === 'retention sweep').length;

    await retention.start();
    expect(sweeps()).toBe(1);
    await settled(driver, 'cancelled');
    await clock.advance(HOUR);
    expect(sweeps()).toBe(2);
    expect((await driver.list({ queue: 'sweep' })).jobs).toEqual([]);
    await retention.stop();
    await clock.advance(3 * HOUR);

    expect(sweeps()).toBe(2);
    expect(clock.pending()).toBe(0);
  });

  it('answers CONFIG_INVALID for a negative keep or a bad interval', () => {
    const { driver } = memoryOnManualClock();
    const attempt = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error;
      }
      return undefined;
    };

    const badKeep = attempt(() => createRetention({ driver, keep: { dead: -1 }, intervalMs: 1 }));
    const badInterval = attempt(() => createRetention({ driver, keep: {}, intervalMs: 0 }));

    expect(isBerthError(badKeep, 'CONFIG_INVALID') && badKeep.meta.option).toBe('keep.dead');
    expect(isBerthError(badInterval, 'CONFIG_INVALID') && badInterval.meta.option).toBe(
      'intervalMs',
    );
  });
});
