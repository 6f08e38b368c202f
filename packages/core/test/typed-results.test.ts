import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  type AnyJobDefinition,
  type Client,
  createClient,
  createWorker,
  defineJob,
  isBerthError,
  type JobResultOf,
  type Json,
  NonRetryableError,
  type TypedJobRecord,
  type Worker,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveUntil } from './support/runtime.js';

const invoice = defineJob({
  name: 'invoice',
  schema: z.object({ cents: z.number().int() }),
  run: ({ payload }) => ({ total: payload.cents / 100, currency: 'EUR' as const }),
});
const ping = defineJob({ name: 'ping', run: () => {} });
const refuse = defineJob({
  name: 'refuse',
  retry: { maxAttempts: 1 },
  run: (): { never: true } => {
    throw new NonRetryableError('card declined');
  },
});
type Invoice = { total: number; currency: 'EUR' };

// Compiled by `pnpm typecheck`, never run.
async function compileOnly(client: Client, worker: Worker<JobResultOf<typeof invoice>>) {
  expectTypeOf<JobResultOf<typeof invoice>>().toEqualTypeOf<Invoice>();
  expectTypeOf<JobResultOf<typeof ping>>().toEqualTypeOf<undefined>();
  worker.on('completed', ({ result }) => expectTypeOf(result).toEqualTypeOf<Invoice>());
  expectTypeOf(await client.enqueueAndWait(invoice, { cents: 1 })).toEqualTypeOf<Invoice>();
  // @ts-expect-error the payload is still checked
  await client.enqueueAndWait(invoice, { cents: '1' });
  const record = await client.get(invoice, 'id');
  expectTypeOf(record).toEqualTypeOf<TypedJobRecord<{ cents: number }, Invoice>>();
  expectTypeOf(record.result).toEqualTypeOf<Invoice | undefined>();
  expectTypeOf(await client.handle(invoice, 'id').result()).toEqualTypeOf<Invoice>();
}

const workers: Worker<unknown>[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop({ graceMs: 0 })));
});

function setup() {
  const { driver, clock } = memoryOnManualClock();
  const worker = createWorker({
    driver,
    jobs: [invoice, ping, refuse],
    concurrency: 2,
    visibilityTimeoutMs: 30_000,
    pollIntervalMs: 1_000,
  });
  workers.push(worker);
  return { driver, clock, worker, client: createClient({ driver }) };
}

/** Drives the manual clock until `promise` settles; answers how it settled. */
async function settle<T>(clock: Parameters<typeof driveUntil>[0], promise: Promise<T>) {
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  promise.then(
    (value) => {
      outcome = { ok: true, value };
    },
    (error: unknown) => {
      outcome = { ok: false, error };
    },
  );
  await driveUntil(clock, () => outcome !== undefined, { stepMs: 25 });
  if (outcome === undefined) throw new Error('unreachable');
  return outcome;
}

describe('typed results', () => {
  it("types a worker's completed event by its jobs' results", async () => {
    const { clock, worker, client } = setup();
    expectTypeOf(worker).toEqualTypeOf<Worker<Invoice | undefined | { never: true }>>();
    const seen: (Json | undefined)[] = [];
    worker.on('completed', ({ result }) => seen.push(result));
    await worker.start();
    await settle(clock, client.enqueueAndWait(invoice, { cents: 1250 }));
    expect(seen).toEqual([{ total: 12.5, currency: 'EUR' }]);
    expect(compileOnly).toBeTypeOf('function');
  });

  it('enqueueAndWait answers the result once the job completes', async () => {
    const { clock, worker, client } = setup();
    await worker.start();
    const outcome = await settle(clock, client.enqueueAndWait(invoice, { cents: 990 }));
    expect(outcome).toEqual({ ok: true, value: { total: 9.9, currency: 'EUR' } });
    expect(await settle(clock, client.enqueueAndWait(ping, null))).toEqual({
      ok: true,
      value: undefined,
    });
  });

  it('handle.result() throws JOB_FAILED with the last error when the job dies', async () => {
    const { clock, worker, client } = setup();
    await worker.start();
    const { id } = await client.enqueue(refuse, null);
    const outcome = await settle(clock, client.handle(refuse, id).result());
    expect(outcome.ok).toBe(false);
    const error = outcome.ok ? undefined : outcome.error;
    expect(isBerthError(error, 'JOB_FAILED')).toBe(true);
    if (isBerthError(error, 'JOB_FAILED')) {
      expect(error.meta).toEqual({
        jobId: id,
        name: 'refuse',
        state: 'dead',
        error: { message: 'card declined' },
      });
    }
  });

  it('handle.result() throws JOB_WAIT_TIMEOUT when the job has not settled in time', async () => {
    const { clock, client } = setup();
    const { id } = await client.enqueue(invoice, { cents: 1 });
    const outcome = await settle(clock, client.handle(invoice, id).result({ timeoutMs: 500 }));
    const error = outcome.ok ? undefined : outcome.error;
    expect(isBerthError(error, 'JOB_WAIT_TIMEOUT')).toBe(true);
    if (isBerthError(error, 'JOB_WAIT_TIMEOUT')) {
      expect(error.meta).toEqual({ jobId: id, name: 'invoice', timeoutMs: 500, state: 'ready' });
    }
  });

  it('get() reads the typed record, and refuses a job of another kind as JOB_NOT_FOUND', async () => {
    const { clock, worker, client } = setup();
    await worker.start();
    const { id } = await client.enqueue(invoice, { cents: 100 });
    await settle(clock, client.handle(invoice, id).result());
    const record = await client.get(invoice, id);
    expect(record).toMatchObject({
      payload: { cents: 100 },
      result: { total: 1, currency: 'EUR' },
    });
    const wrong = await client.get(ping, id).catch((error: unknown) => error);
    expect(isBerthError(wrong, 'JOB_NOT_FOUND')).toBe(true);
  });
});

describe('results of jobs known only as AnyJobDefinition', () => {
  it('are stored JSON', () => {
    const { driver } = memoryOnManualClock();
    const jobs: readonly AnyJobDefinition[] = [invoice, ping];
    const worker = createWorker({ driver, jobs, concurrency: 1, visibilityTimeoutMs: 30_000 });
    expectTypeOf(worker).toEqualTypeOf<Worker<Json | undefined>>();
    expectTypeOf<JobResultOf<AnyJobDefinition>>().toEqualTypeOf<Json | undefined>();
    expect(worker.running()).toBe(0);
  });
});
