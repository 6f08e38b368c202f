import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  createClient,
  createWorker,
  declareJob,
  defineBatchJob,
  defineJob,
  type JobNameOf,
  NonRetryableError,
  type Worker,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState } from './support/runtime.js';

const invoice = defineJob({
  name: 'invoice',
  schema: z.object({ cents: z.number().int() }),
  run: ({ payload }) => ({ total: payload.cents / 100 }),
});
const greet = defineJob<{ who: string }>()({
  name: 'greet',
  run: ({ payload }) => `hello ${payload.who}`,
});
const refuse = defineJob({
  name: 'refuse',
  retry: { maxAttempts: 1, deadLetter: false },
  run: (): null => {
    throw new NonRetryableError('card declined');
  },
});

const workers: Worker<unknown>[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop({ graceMs: 0 })));
});

describe("a worker's events name their job and narrow by it", () => {
  it('keeps the literal name of a job defined with a schema, with defineJob<T>()(...), and of a batch job', () => {
    expectTypeOf<JobNameOf<typeof invoice>>().toEqualTypeOf<'invoice'>();
    expectTypeOf<JobNameOf<typeof greet>>().toEqualTypeOf<'greet'>();
    const batch = defineBatchJob<{ doc: string }>()({
      name: 'index',
      batch: { size: 2, waitMs: 10 },
      run: (items) => items.map(() => null),
    });
    expectTypeOf<JobNameOf<typeof batch>>().toEqualTypeOf<'index'>();
    // A type argument given by hand leaves the name a plain string: TypeScript infers none then.
    const typedByHand = defineJob<{ n: number }>({ name: 'by-hand', run: () => {} });
    expectTypeOf<JobNameOf<typeof typedByHand>>().toEqualTypeOf<string>();
    const contract = declareJob({ name: 'declared' });
    expectTypeOf<JobNameOf<typeof contract>>().toEqualTypeOf<'declared'>();
  });

  it("narrows completed's result by the job's name, and every event's name to the worker's jobs", async () => {
    const { driver, clock } = memoryOnManualClock();
    const worker = createWorker({
      driver,
      jobs: [invoice, greet, refuse],
      concurrency: 2,
      visibilityTimeoutMs: 30_000,
      pollIntervalMs: 1_000,
    });
    workers.push(worker);
    const completed: unknown[] = [];
    const failed: string[] = [];
    worker.on('completed', (event) => {
      if (event.name === 'invoice') {
        expectTypeOf(event.result).toEqualTypeOf<{ total: number }>();
        completed.push(event.result.total);
      } else if (event.name === 'greet') {
        expectTypeOf(event.result).toEqualTypeOf<string>();
        completed.push(event.result.toUpperCase());
      } else {
        expectTypeOf(event.name).toEqualTypeOf<'refuse'>();
      }
    });
    worker.on('failed', ({ name, job }) => {
      expectTypeOf(name).toEqualTypeOf<'invoice' | 'greet' | 'refuse'>();
      failed.push(`${name}:${job.id === '' ? '?' : 'job'}`);
    });
    await worker.start();
    const client = createClient({ driver });
    const jobs = [
      await client.enqueue(invoice, { cents: 1250 }),
      await client.enqueue(greet, { who: 'Ada' }),
    ];
    for (const { id } of jobs) await driveToState(driver, clock, id, 'completed');
    const refused = await client.enqueue(refuse, null);
    await driveToState(driver, clock, refused.id, 'failed');
    expect(completed.sort()).toEqual([12.5, 'HELLO ADA']);
    expect(failed).toEqual(['refuse:job']);
  });
});
