import { describe, expect, it } from 'vitest';
import { createScheduler, type Driver, type ManualClock } from '../src/index.js';
import { interposed } from './support/interposed.js';
import { memoryOnManualClock } from './support/memory.js';
import { gate, recordingLogger, settleTicks } from './support/runtime.js';

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;
const everyMinute = { name: 'sync', cron: '* * * * *', job: { name: 'sync', queue: 'cron' } };
const TIMING = { leaseTtlMs: 30_000, tickMs: 1_000 };

/** Lets the memory driver's answers run until `done()` (a held call was reached). */
async function until(done: () => boolean): Promise<void> {
  for (let round = 0; round < 100 && !done(); round += 1) await settleTicks(1);
  expect(done()).toBe(true);
}

/** Thrown by a wrapper where the scheduler's process "dies": it never runs another line. */
class Crash extends Error {}

/** Runs every `sync` job to completion and purges it, as retention does. */
async function completeAndPurge(driver: Driver, clock: ManualClock): Promise<number> {
  for (;;) {
    const [job] = await driver.claim({
      queues: ['cron'],
      workerId: 'w',
      visibilityTimeoutMs: 1_000,
    });
    if (job === undefined) break;
    await driver.ack({ jobId: job.id, workerId: 'w', claim: job.claim });
  }
  return driver.purge({ states: ['completed'], olderThan: clock.now() + 1 });
}

/** How many times each slot's job was created (a purged job counts, a deduped enqueue not). */
function creations(driver: Driver): { driver: Driver; created: Map<string, number> } {
  const created = new Map<string, number>();
  const counting = interposed(driver, () => {});
  const enqueue = counting.enqueue.bind(counting);
  return {
    created,
    driver: new Proxy(counting, {
      get(object, key) {
        if (key !== 'enqueue') return Reflect.get(object, key, object);
        return async (request: Parameters<Driver['enqueue']>[0]) => {
          const answer = await enqueue(request);
          if ('id' in answer && !answer.deduped) {
            created.set(answer.id, (created.get(answer.id) ?? 0) + 1);
          }
          return answer;
        };
      },
    }),
  };
}

describe('scheduler crash safety', () => {
  it('never enqueues a slot again when its leader died once the enqueue landed, and retention purged the job', async () => {
    const { driver: memory, clock } = memoryOnManualClock();
    const { driver, created } = creations(memory);
    // a's enqueue lands, and a dies before it reads the answer.
    const dying = interposed(
      driver,
      () => {},
      (call) => {
        if (call === 'enqueue') throw new Crash('killed after the enqueue');
      },
    );
    const options = { schedules: [everyMinute], catchUp: { maxSlots: 1, neverRun: 1 }, ...TIMING };
    await clock.set(T0 + MINUTE + 10_000);
    await createScheduler({ ...options, driver: dying, holderId: 'a' }).tick();
    expect(await completeAndPurge(memory, clock)).toBe(1);

    // a never ticks again and never releases its lease: b takes over once it lapses.
    await clock.set(T0 + MINUTE + 45_000);
    const takeover = await createScheduler({ ...options, driver, holderId: 'b' }).tick();

    expect(takeover.leader).toBe(true);
    expect(takeover.enqueued).toEqual([]);
    expect([...created.values()]).toEqual([1]);
  });

  it('enqueues exactly once, and warns of nothing, a slot whose leader died before its enqueue landed', async () => {
    const { driver: memory, clock } = memoryOnManualClock();
    const { driver, created } = creations(memory);
    const dying = interposed(driver, (call) => {
      if (call === 'enqueue') throw new Crash('killed before the enqueue landed');
    });
    const { lines, logger } = recordingLogger();
    const options = { schedules: [everyMinute], catchUp: { maxSlots: 1, neverRun: 1 }, ...TIMING };
    await clock.set(T0 + MINUTE + 10_000);
    await createScheduler({ ...options, driver: dying, holderId: 'a' }).tick();

    await clock.set(T0 + MINUTE + 45_000);
    const takeover = await createScheduler({ ...options, driver, logger, holderId: 'b' }).tick();
    expect(await completeAndPurge(memory, clock)).toBe(1);
    await clock.advance(1_000);
    const next = await createScheduler({ ...options, driver, logger, holderId: 'b' }).tick();

    expect(takeover.enqueued.map((slot) => [slot.slot, slot.deduped])).toEqual([
      [T0 + MINUTE, false],
    ]);
    expect(next.enqueued).toEqual([]);
    expect([...created.values()]).toEqual([1]);
    expect(lines.filter((line) => line.level === 'warn')).toEqual([]);
  });

  it('makes no second job when it retries a slot whose enqueue landed but whose answer was lost', async () => {
    const { driver: memory, clock } = memoryOnManualClock();
    const { driver, created } = creations(memory);
    let losses = 1;
    const lossy = interposed(
      driver,
      () => {},
      (call) => {
        if (call === 'enqueue' && losses > 0) {
          losses -= 1;
          throw new Error('connection reset');
        }
      },
    );
    const { lines, logger } = recordingLogger();
    const options = { schedules: [everyMinute], catchUp: { maxSlots: 1, neverRun: 1 }, ...TIMING };
    const scheduler = createScheduler({ ...options, driver: lossy, logger, holderId: 'a' });
    await clock.set(T0 + MINUTE + 10_000);
    const failed = await scheduler.tick();
    expect(await completeAndPurge(memory, clock)).toBe(1);
    await clock.advance(1_000);
    const retried = await scheduler.tick();

    expect(failed.enqueued).toEqual([]);
    expect(retried.enqueued).toEqual([]);
    expect([...created.values()]).toEqual([1]);
    // The retry read the mark, which its landed enqueue raised: it skipped the slot.
    expect(lines.filter((line) => line.level === 'error')).toHaveLength(1);
  });

  it('retries a slot whose enqueue failed, and warns of nothing', async () => {
    const { driver, clock } = memoryOnManualClock();
    let failures = 1;
    const flaky = interposed(driver, (call) => {
      if (call === 'enqueue' && failures > 0) {
        failures -= 1;
        throw new Error('connection reset');
      }
    });
    const { lines, logger } = recordingLogger();
    const scheduler = createScheduler({
      driver: flaky,
      logger,
      schedules: [everyMinute],
      catchUp: { maxSlots: 1, neverRun: 1 },
      ...TIMING,
    });
    await clock.set(T0 + MINUTE + 10_000);
    const failed = await scheduler.tick();
    await clock.advance(1_000);
    const retried = await scheduler.tick();

    expect(failed.enqueued).toEqual([]);
    expect(retried.enqueued.map((slot) => [slot.slot, slot.deduped])).toEqual([
      [T0 + MINUTE, false],
    ]);
    expect((await driver.list({ name: 'sync' })).jobs).toHaveLength(1);
    expect(lines.filter((line) => line.level === 'warn')).toEqual([]);
    expect(lines.filter((line) => line.level === 'error')).toHaveLength(1);
  });

  it('catches up a slot whose leader died before reaching it', async () => {
    const { driver, clock } = memoryOnManualClock();
    const options = { schedules: [everyMinute], catchUp: { maxSlots: 1, neverRun: 1 }, ...TIMING };
    await clock.set(T0 + 10_000);
    await createScheduler({ ...options, driver, holderId: 'a' }).tick();
    // a dies at T0 + 20 s, before the slot of minute 1.

    await clock.set(T0 + MINUTE + 45_000);
    const takeover = await createScheduler({ ...options, driver, holderId: 'b' }).tick();

    expect(takeover.enqueued.map((slot) => [slot.slot, slot.deduped])).toEqual([
      [T0 + MINUTE, false],
    ]);
  });

  it('enqueues each slot once when a catch-up outlasts its lease while another scheduler leads', async () => {
    const { driver: memory, clock } = memoryOnManualClock();
    const { driver, created } = creations(memory);
    const held = gate();
    let holding = true;
    const slow = interposed(driver, async (call) => {
      if (holding && call === 'enqueue') {
        holding = false;
        await held.promise;
      }
    });
    const options = { schedules: [everyMinute], catchUp: { maxSlots: 3, neverRun: 3 }, ...TIMING };
    await clock.set(T0 + 3 * MINUTE + 10_000);
    const a = createScheduler({ ...options, driver: slow, holderId: 'a' });
    const stalled = a.tick();
    await until(() => !holding);

    // a's first enqueue hangs past its lease: b takes the lead and catches up.
    await clock.advance(31_000);
    const b = createScheduler({ ...options, driver, holderId: 'b' });
    const leading = await b.tick();
    expect(await completeAndPurge(memory, clock)).toBeGreaterThan(0);
    held.open();
    const late = await stalled;
    await clock.advance(1_000);
    await b.tick();
    await completeAndPurge(memory, clock);

    expect(leading.leader).toBe(true);
    expect(late.enqueued.length + leading.enqueued.length).toBe(3);
    expect(created.size).toBe(3);
    expect([...created.values()]).toEqual([1, 1, 1]);
    expect(a.isLeader()).toBe(false);
  });

  it('lets no tick asked for during stop() retake the lead once stop() resolved', async () => {
    const { driver, clock } = memoryOnManualClock();
    const held = gate();
    let holding = false;
    const slow = interposed(driver, async (call) => {
      if (holding && call === 'leases.renew') {
        holding = false;
        await held.promise;
      }
    });
    const a = createScheduler({ driver: slow, schedules: [everyMinute], holderId: 'a' });
    const b = createScheduler({ driver, schedules: [everyMinute], holderId: 'b' });
    await a.start();
    holding = true;
    const inFlight = a.tick();
    await until(() => !holding);
    const stopped = a.stop();
    // Asked for while the stop waits on the tick in flight, as a timer firing then would be.
    const queued = a.tick();
    await settleTicks();
    held.open();
    await stopped;
    const leftovers = await Promise.all([inFlight, queued]);
    await clock.advance(1);

    expect(leftovers.map((tick) => tick.leader)).toEqual([true, false]);
    expect(await driver.leases.holder('berth.scheduler')).toBeUndefined();
    expect((await b.tick()).leader).toBe(true);
    expect(a.isLeader()).toBe(false);
    // A stopped scheduler stays stopped until start(): a later tick() does nothing.
    expect(await a.tick()).toEqual({ leader: false, enqueued: [] });
  });
});
