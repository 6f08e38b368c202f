import { describe, expect, it } from 'vitest';
import {
  createClient,
  type Driver,
  defineJob,
  isBerthError,
  NonRetryableError,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { gate, settleTicks } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

// settleBatchMs 0: the ack goes out a tick after the handler, with the clock standing still.
const workers = testWorkers({
  visibilityTimeoutMs: 30_000,
  concurrency: 2,
  pollIntervalMs: 20,
  settleBatchMs: 0,
});

/** The memory driver on a manual clock, counting its `get` calls (one object for both sides). */
function countingDriver() {
  const { driver, clock } = memoryOnManualClock();
  const counted = { gets: 0 };
  const wrapped: Driver = Object.create(driver, {
    get: {
      value: (...args: Parameters<Driver['get']>) => {
        counted.gets += 1;
        return driver.get(...args);
      },
    },
  });
  return { driver: wrapped, clock, counted };
}

describe('a wait in the process whose worker settles the job looks again at once', () => {
  it('result() answers when the worker acks, with no poll in between: the clock never moved', async () => {
    const { driver, counted } = countingDriver();
    const release = gate();
    const slow = defineJob<{ n: number }>()({
      name: 'slow',
      run: async ({ payload }) => {
        await release.promise;
        return payload.n * 2;
      },
    });
    await workers.start(driver, [slow]);
    const client = createClient({ driver });
    const { id } = await client.enqueue(slow, { n: 21 });
    let answered: number | undefined;
    void client
      .handle(slow, id)
      .result()
      .then((value) => {
        answered = value;
      });
    await settleTicks(20);
    expect(answered).toBeUndefined();
    const looksBefore = counted.gets;
    release.open();
    await settleTicks(40);
    expect(answered).toBe(42);
    // One look after the settle, none while the job ran.
    expect(counted.gets - looksBefore).toBe(1);
  });

  it('a wait for a job that fails for good throws JOB_FAILED as the nack lands', async () => {
    const { driver } = countingDriver();
    const refuse = defineJob<{ n: number }>()({
      name: 'refuse',
      run: () => {
        throw new NonRetryableError('refused');
      },
    });
    const client = createClient({ driver });
    const { id } = await client.enqueue(refuse, { n: 1 });
    let thrown: unknown;
    const waiting = client
      .handle(refuse, id)
      .result()
      .catch((error: unknown) => {
        thrown = error;
      });
    await settleTicks(20);
    await workers.start(driver, [refuse]);
    await settleTicks(40);
    await Promise.race([waiting, settleTicks(1)]);
    expect(isBerthError(thrown, 'JOB_FAILED')).toBe(true);
  });
});
