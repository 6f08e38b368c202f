import { connect } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { subjectsFor } from '../src/subjects.js';
import { natsDriver } from './nats-factory.js';

/** Payloads no driver publishes: not JSON, JSON that is not a list, a list that is not strings. */
const GARBAGE = ['not json at all', '{"queues":["wakes"]}', '[1,2]', 'null', '', '["wakes",7]'];

describe('the nats wake subject', () => {
  it('ignores payloads it cannot read: the connection stays up, calls answer and wakes still arrive', async () => {
    // A short request timeout: a dead connection shows as a failed call, not a long wait.
    const { driver, url, prefix, dispose } = await natsDriver({ timeoutMs: 3_000 });
    const stranger = await connect({ servers: url });
    try {
      let woke: (queue: string) => void = () => {};
      const wake = new Promise<string>((resolve) => {
        woke = resolve;
      });
      const unsubscribe = await driver.subscribe?.(['wakes'], (queue) => woke(queue));
      for (const payload of GARBAGE) stranger.publish(subjectsFor(prefix).wake, payload);
      await stranger.flush();

      const { id } = await driver.enqueue({ name: 'after-garbage', queue: 'wakes' });
      const [job] = await driver.claim({
        queues: ['wakes'],
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
      });
      expect(job?.id).toBe(id);
      if (job === undefined) return;
      expect(await driver.ack({ jobId: job.id, workerId: 'w', claim: job.claim })).toBe(true);
      expect((await driver.get(id))?.state).toBe('completed');
      // The enqueue's own wake comes through the same subscription after the garbage.
      expect(await wake).toBe('wakes');
      await unsubscribe?.();
    } finally {
      await stranger.close();
      await dispose();
    }
  });
});
