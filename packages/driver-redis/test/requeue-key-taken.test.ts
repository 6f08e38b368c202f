import { createManualClock, type Driver, type DriverHooks, isBerthError } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { describe, expect, it } from 'vitest';
import { claimed } from './claimed-job.js';
import { redisDriver } from './redis-factory.js';

const T0 = Date.UTC(2026, 0, 1);

/** A dead job holding `key`, whose key is free again. */
async function deadWithKey(driver: Driver, key: string) {
  const made = await claimed(driver, { name: 'keyed', idempotencyKey: key });
  await driver.nack(made.fence, { error: { message: 'no' }, final: true });
  return made;
}

describe('redis requeue racing a new holder of its key', () => {
  it('a requeue whose key a new live row took during its check answers JOB_DUPLICATE, as memory does, and leaves one live holder', async () => {
    const clock = createManualClock(T0);
    const hooks: DriverHooks = {};
    const { driver: redis, dispose } = await redisDriver({ clock, hooks });
    const memory = createMemoryDriver({ clock, hooks });
    try {
      for (const driver of [redis, memory]) {
        const dead = await deadWithKey(driver, 'k');
        let taker: string | undefined;
        hooks.afterRequeueCheck = async () => {
          delete hooks.afterRequeueCheck;
          taker = (await driver.enqueue({ name: 'keyed', idempotencyKey: 'k', queue: 'q' })).id;
        };
        const refusal = await driver.requeue(dead.id).catch((error: unknown) => error);
        expect(isBerthError(refusal, 'JOB_DUPLICATE'), driver.name).toBe(true);
        if (isBerthError(refusal, 'JOB_DUPLICATE'))
          expect(refusal.meta.existingId, driver.name).toBe(taker);
        // The refused requeue changed nothing, and the key still names the row that took it.
        expect((await driver.get(dead.id))?.state, driver.name).toBe('dead');
        const again = await driver.enqueue({ name: 'keyed', idempotencyKey: 'k', queue: 'q' });
        expect(again, driver.name).toMatchObject({ id: taker, deduped: true });
      }
    } finally {
      await memory.close();
      await dispose();
    }
  });
});
