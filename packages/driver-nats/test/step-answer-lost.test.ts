import type { Fence, StepRecord } from '@berth/core';
import type { KV } from '@nats-io/kv';
import { describe, expect, it } from 'vitest';
import type { NatsContext } from '../src/context.js';
import { createNatsDriver } from '../src/index.js';
import { createStepStore } from '../src/steps.js';
import { natsDriver, openTestContext } from './nats-factory.js';

/** The jobs bucket, whose next `update` lands on the server and then fails as a lost answer does. */
function losingNextAnswer(jobs: KV): KV {
  let lose = true;
  return new Proxy(jobs, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property !== 'update') return value.bind(target);
      return async (...args: unknown[]) => {
        const answer: unknown = await value.apply(target, args);
        if (lose) {
          lose = false;
          throw new Error('the connection dropped before the answer came');
        }
        return answer;
      };
    },
  });
}

describe('a step write whose answer was lost', () => {
  it('stays stored and readable by the next claim, so the step is memoized, not run again', async () => {
    const { driver, url, prefix, dispose } = await natsDriver();
    const context = await openTestContext(url, prefix);
    const reader = createNatsDriver({ servers: url, prefix });
    try {
      await driver.enqueue({ name: 'charge', queue: 'answers' });
      const [job] = await driver.claim({
        queues: ['answers'],
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
      });
      if (job === undefined) throw new Error('nothing claimed');
      const fence: Fence = { jobId: job.id, workerId: 'w', claim: job.claim };
      const lossy: NatsContext = Object.create(context, {
        jobs: { value: losingNextAnswer(context.jobs) },
      });
      const record: StepRecord = {
        runId: job.runId,
        name: 'charge',
        status: 'completed',
        output: { charged: 42 },
        attempts: 1,
        startedAt: Date.now(),
        updatedAt: Date.now(),
      };
      await expect(createStepStore(lossy).put(record, fence)).rejects.toThrow('before the answer');

      // The record write landed, so the step it names must read back: from a process that
      // replays the bucket, and from the writer's own.
      expect(await reader.steps.get(job.runId, 'charge')).toMatchObject({
        status: 'completed',
        output: { charged: 42 },
      });
      expect(await driver.steps.list(job.runId)).toMatchObject([{ output: { charged: 42 } }]);
    } finally {
      await reader.close();
      context.stopStatus();
      context.mirror.stop();
      context.wake.close();
      await context.nc.close();
      await dispose();
    }
  });
});
