import { createManualClock } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { claimed } from './claimed-job.js';
import { redisDriver } from './redis-factory.js';

const T0 = Date.UTC(2026, 0, 1);

describe('redis steps of a run past what Lua unpacks at once', () => {
  it('a run with more steps than Lua can unpack at once lists them all and requeue fromStep drops them all', async () => {
    const clock = createManualClock(T0);
    const { driver, dispose } = await redisDriver({ clock });
    try {
      const made = await claimed(driver, { name: 'long' });
      const names = Array.from({ length: 8_200 }, (_, index) => `s${index}`);
      for (let at = 0; at < names.length; at += 500) {
        await Promise.all(
          names.slice(at, at + 500).map((name) =>
            driver.steps.put(
              {
                runId: made.runId,
                name,
                status: 'completed',
                attempts: 1,
                startedAt: T0,
                updatedAt: T0,
              },
              made.fence,
            ),
          ),
        );
      }
      const listed = await driver.steps.list(made.runId);
      expect(listed.map((step) => step.name)).toEqual(names);
      await driver.nack(made.fence, { error: { message: 'no' }, final: true });
      const requeued = await driver.requeue(made.id, { fromStep: 's0' });
      expect(requeued.state).toBe('ready');
      expect(await driver.steps.list(made.runId)).toEqual([]);
    } finally {
      await dispose();
    }
  }, 60_000);
});
