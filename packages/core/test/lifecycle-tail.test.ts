import { describe, expect, it } from 'vitest';
import { driverUnavailable } from '../src/driver.js';
import { type Driver, isBerthError, type LifecycleEvent, tailLifecycle } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';

const VT = 60_000;

/** Enqueues one job of `queue` and claims it: one `active` event. */
async function claimOne(driver: Driver, queue = 'q') {
  const { id } = await driver.enqueue({ name: 'task', queue });
  const [job] = await driver.claim({ queues: [queue], workerId: 'w', visibilityTimeoutMs: VT });
  if (job === undefined || job.id !== id) throw new Error('expected to claim the job');
  return { jobId: id, workerId: 'w', claim: job.claim };
}

/** The first `count` events of `tail`, then stops it. */
async function take(
  tail: AsyncGenerator<LifecycleEvent, void, undefined>,
  count: number,
): Promise<LifecycleEvent[]> {
  const events: LifecycleEvent[] = [];
  for await (const event of tail) {
    events.push(event);
    if (events.length === count) break;
  }
  return events;
}

/** `driver` with a promise that resolves once a tail has read where the stream ends. */
function endWatched(driver: Driver): { driver: Driver; ended: Promise<void> } {
  let told = () => {};
  const ended = new Promise<void>((resolve) => {
    told = resolve;
  });
  const watched: Driver = {
    ...driver,
    lifecycle: {
      ...driver.lifecycle,
      end: async () => {
        const end = await driver.lifecycle.end();
        told();
        return end;
      },
    },
  };
  return { driver: watched, ended };
}

const kinds = (events: readonly LifecycleEvent[]) => events.map((event) => event.type);

describe('tailLifecycle', () => {
  it('from the end it yields only what happens later, in order, and a break ends it', async () => {
    const { driver } = memoryOnManualClock();
    const before = await claimOne(driver);
    const watched = endWatched(driver);
    const tail = tailLifecycle(watched.driver, { pollMs: 10 });
    const events = take(tail, 2);
    await watched.ended;
    const fence = await claimOne(driver);
    await driver.ack(before);
    expect(kinds(await events)).toEqual(['active', 'completed']);
    expect((await events)[0]?.jobId).toBe(fence.jobId);
    expect(await tail.next()).toEqual({ done: true, value: undefined });
  });

  it('from a saved position it resumes right after it: nothing lost, nothing twice', async () => {
    const { driver } = memoryOnManualClock();
    const first = await claimOne(driver);
    const second = await claimOne(driver);
    await driver.ack(first);
    await driver.ack(second);
    const [seen] = await take(tailLifecycle(driver, { from: 'start', pollMs: 10 }), 1);
    if (seen === undefined) throw new Error('expected a first event');
    const rest = await take(tailLifecycle(driver, { from: seen.position, pollMs: 10 }), 3);
    expect(rest.map((event) => [event.jobId, event.type])).toEqual([
      [second.jobId, 'active'],
      [first.jobId, 'completed'],
      [second.jobId, 'completed'],
    ]);
  });

  it('filters as read does: a queue’s tail yields only that queue’s events', async () => {
    const { driver } = memoryOnManualClock();
    await claimOne(driver, 'other');
    const mine = await claimOne(driver, 'mine');
    const events = await take(tailLifecycle(driver, { from: 'start', queue: 'mine' }), 1);
    expect(events.map((event) => event.jobId)).toEqual([mine.jobId]);
  });

  it('a settle notice wakes a caught-up tail long before its next poll', async () => {
    const { driver } = memoryOnManualClock();
    const fence = await claimOne(driver);
    const watched = endWatched(driver);
    const tail = tailLifecycle(watched.driver, { pollMs: 60_000 });
    const events = take(tail, 1);
    // Whether the ack lands before the tail's first read or while it sleeps, it is seen.
    await watched.ended;
    await driver.ack(fence);
    // Without the notice this would wait out the minute's poll (and the test's timeout).
    expect(kinds(await events)).toEqual(['completed']);
  });

  it('a read the driver could not answer is retried from the same position', async () => {
    const { driver } = memoryOnManualClock();
    await claimOne(driver);
    let failures = 1;
    const flaky: Driver = {
      ...driver,
      lifecycle: {
        ...driver.lifecycle,
        read: async (request) => {
          if (failures > 0) {
            failures -= 1;
            throw driverUnavailable({ driver: 'memory', operation: 'read', cause: new Error('x') });
          }
          return driver.lifecycle.read(request);
        },
      },
    };
    const events = await take(tailLifecycle(flaky, { from: 'start', pollMs: 10 }), 1);
    expect(kinds(events)).toEqual(['active']);
    expect(failures).toBe(0);
  });

  it('an abort ends the loop; a bad position or pollMs is refused, not retried', async () => {
    const { driver } = memoryOnManualClock();
    const controller = new AbortController();
    const tail = tailLifecycle(driver, { pollMs: 60_000, signal: controller.signal });
    const done = take(tail, 1);
    setTimeout(() => controller.abort(), 20);
    expect(await done).toEqual([]);
    await expect(take(tailLifecycle(driver, { from: 'nowhere' }), 1)).rejects.toMatchObject({
      code: 'JOB_PAGE_INVALID',
    });
    const refused = await take(tailLifecycle(driver, { pollMs: 1 }), 1).catch((error) => error);
    expect(isBerthError(refused, 'CONFIG_INVALID')).toBe(true);
  });
});
