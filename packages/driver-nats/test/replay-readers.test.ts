import { DEFAULT_EVENT_TTL_MS } from '@berth/core/driver';
import { describe, expect, it } from 'vitest';
import { createEventStore } from '../src/events.js';
import { natsDriver, openTestContext } from './nats-factory.js';

// A grace of 0: every resume may have missed a marker, so it replays the bucket.
const GRACE_MS = 0;

describe('after the watch replays the bucket into a fresh index', () => {
  it('the event store reads and wakes from the fresh index, not the one it was made with', async () => {
    const { driver, url, prefix, dispose } = await natsDriver();
    const context = await openTestContext(url, prefix, GRACE_MS);
    try {
      const events = createEventStore(context);
      const early = await events.publish('early', { n: 1 }, DEFAULT_EVENT_TTL_MS);
      await driver.enqueue({ name: 'waiter', queue: 'replayed' });
      const [job] = await driver.claim({
        queues: ['replayed'],
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
      });
      if (job === undefined) throw new Error('nothing claimed');
      const fence = { jobId: job.id, workerId: 'w', claim: job.claim };
      expect(await driver.suspend(fence, { until: Date.now() + 3_600_000, waitFor: 'go' })).toBe(
        true,
      );

      // The watch starts over into a new index, as after an outage past the grace.
      await context.mirror.resume();
      const late = await events.publish('late', { n: 2 }, DEFAULT_EVENT_TTL_MS);

      expect(await events.find('late', { after: 0 })).toMatchObject({ id: late.id });
      expect((await events.list()).map((event) => event.id).sort()).toEqual(
        [early.id, late.id].sort(),
      );
      let wake: (queue: string) => void = () => {};
      const woken = new Promise<string>((resolve) => {
        wake = resolve;
      });
      await context.wake.subscribe(['replayed'], (queue) => wake(queue));
      await events.publish('go', {}, DEFAULT_EVENT_TTL_MS);
      // The publish finds its waiter in the index the watch now feeds, and wakes its queue.
      expect(await woken).toBe('replayed');
      expect((await driver.get(job.id))?.state).toBe('ready');
    } finally {
      context.stopStatus();
      context.mirror.stop();
      context.wake.close();
      await context.nc.close();
      await dispose();
    }
  });
});
