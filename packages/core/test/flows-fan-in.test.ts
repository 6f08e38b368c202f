import { describe, expect, it } from 'vitest';
import { createClient, type Driver, defineJob } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const workers = testWorkers({
  visibilityTimeoutMs: 30_000,
  concurrency: 8,
  pollIntervalMs: 20,
  settleBatchMs: 0,
});

/** Runs a flow of `size` children to its end; answers the job reads it took. */
async function readsForFlow(size: number): Promise<number> {
  const { driver, clock } = memoryOnManualClock();
  let gets = 0;
  const counted: Driver = Object.create(driver, {
    get: {
      value: (...args: Parameters<Driver['get']>) => {
        gets += 1;
        return driver.get(...args);
      },
    },
  });
  const part = defineJob<{ n: number }>()({ name: 'part', run: ({ payload }) => payload.n });
  const sum = defineJob<Record<string, never>>()({
    name: 'sum',
    run: async ({ step }) =>
      (await step.children(part)).reduce(
        (total, child) => total + (child.state === 'completed' ? child.result : 0),
        0,
      ),
  });
  // One job at a time, the parent first whenever it is due: it wakes after every child.
  await workers.start(counted, [sum, part], { concurrency: 1 });
  const flow = await createClient({ driver: counted }).enqueueFlow({
    job: sum,
    payload: {},
    options: { priority: 10 },
    children: Array.from({ length: size }, (_, n) => ({ job: part, payload: { n } })),
  });
  const done = await driveToState(driver, clock, flow.parent.id, 'completed');
  expect(done.result).toBe((size * (size - 1)) / 2);
  return gets;
}

describe("a flow parent's fan-in is bounded by its children", () => {
  it('reads each child about once however many there are, even waking after every child: 10 and 200 children take the same reads per child', async () => {
    const small = await readsForFlow(10);
    const large = await readsForFlow(200);
    // Each wake reads only the children its announcements name, never every pending child.
    expect(small).toBeLessThanOrEqual(2 * 10);
    expect(large).toBeLessThanOrEqual(2 * 200);
  });
});
