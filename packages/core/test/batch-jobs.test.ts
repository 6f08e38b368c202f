import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type BatchItem,
  createClient,
  declareJob,
  defineBatchJob,
  implementBatchJob,
  isBerthError,
  type JobRecord,
  type JobResultOf,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, gate } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const workers = testWorkers({ visibilityTimeoutMs: 30_000, concurrency: 10, pollIntervalMs: 20 });

type Doc = { doc: string };

function thrownBy(define: () => unknown): unknown {
  try {
    define();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('batch jobs: one handler run for many jobs, each settled on its own', () => {
  it('runs waiting jobs together, up to batch.size, and completes each with its own result', async () => {
    const { driver, clock } = memoryOnManualClock();
    const batches: string[][] = [];
    const index = defineBatchJob<Doc>({
      name: 'docs.index',
      batch: { size: 3, waitMs: 1_000 },
      run: (items) => {
        batches.push(items.map((item) => item.payload.doc));
        return items.map((item) => ({ indexed: item.payload.doc.toUpperCase() }));
      },
    });
    const client = createClient({ driver, jobs: [index] });
    const jobs = await client.enqueueMany(
      ['a', 'b', 'c', 'd'].map((doc) => ({ job: index, payload: { doc } })),
    );
    await workers.start(driver, [index]);
    for (const { id } of jobs) await driveToState(driver, clock, id, 'completed');
    expect(batches).toEqual([['a', 'b', 'c'], ['d']]);
    const results = await Promise.all(jobs.map(async ({ id }) => (await driver.get(id))?.result));
    expect(results).toEqual([
      { indexed: 'A' },
      { indexed: 'B' },
      { indexed: 'C' },
      { indexed: 'D' },
    ]);
  });

  it('runs a batch that did not fill once batch.waitMs passed since its first job, not before', async () => {
    const { driver, clock } = memoryOnManualClock();
    const ranAt: number[] = [];
    const index = defineBatchJob<Doc>({
      name: 'docs.index',
      batch: { size: 10, waitMs: 500 },
      run: (items) => {
        ranAt.push(clock.now());
        return items.map(() => null);
      },
    });
    const client = createClient({ driver, jobs: [index] });
    await workers.start(driver, [index]);
    const t0 = clock.now();
    const one = await client.enqueue(index, { doc: 'a' });
    const two = await client.enqueue(index, { doc: 'b' });
    await driveToState(driver, clock, one.id, 'completed');
    await driveToState(driver, clock, two.id, 'completed');
    expect(ranAt).toHaveLength(1);
    expect(ranAt[0]).toBeGreaterThanOrEqual(t0 + 500);
  });

  it('fails only the job whose entry is an Error; it is retried in a later batch and completes', async () => {
    const { driver, clock } = memoryOnManualClock();
    const seen: string[][] = [];
    let failedOnce = false;
    const index = defineBatchJob<Doc>({
      name: 'docs.index',
      batch: { size: 2, waitMs: 100 },
      retry: { maxAttempts: 2, backoff: { initialMs: 10, jitter: 0 } },
      run: (items) => {
        seen.push(items.map((item) => `${item.payload.doc}#${item.attempt}`));
        return items.map((item) => {
          if (item.payload.doc === 'bad' && !failedOnce) {
            failedOnce = true;
            return new Error('the index refused it');
          }
          return 'ok';
        });
      },
    });
    const client = createClient({ driver, jobs: [index] });
    const [good, bad] = await client.enqueueMany([
      { job: index, payload: { doc: 'good' } },
      { job: index, payload: { doc: 'bad' } },
    ]);
    await workers.start(driver, [index]);
    await driveToState(driver, clock, (good as { id: string }).id, 'completed');
    const record = await driveToState(driver, clock, (bad as { id: string }).id, 'completed');
    expect(record.attempts).toBe(2);
    expect(seen).toEqual([['good#1', 'bad#1'], ['bad#2']]);
  });

  it('fails every job of the batch when the handler throws, with what it threw', async () => {
    const { driver, clock } = memoryOnManualClock();
    const index = defineBatchJob<Doc>({
      name: 'docs.index',
      batch: { size: 2, waitMs: 100 },
      retry: { maxAttempts: 1, deadLetter: false },
      run: () => {
        throw new Error('the index is down');
      },
    });
    const client = createClient({ driver, jobs: [index] });
    const jobs = await client.enqueueMany(
      ['a', 'b'].map((doc) => ({ job: index, payload: { doc } })),
    );
    await workers.start(driver, [index]);
    for (const { id } of jobs) {
      const failed = await driveToState(driver, clock, id, 'failed');
      expect(failed.lastError?.message).toBe('the index is down');
    }
  });

  it('fails every job of the batch, saying why, when the answer has not one entry per item', async () => {
    const { driver, clock } = memoryOnManualClock();
    const index = defineBatchJob<Doc>({
      name: 'docs.index',
      batch: { size: 2, waitMs: 100 },
      retry: { maxAttempts: 1, deadLetter: false },
      run: () => ['only one'],
    });
    const client = createClient({ driver, jobs: [index] });
    const jobs = await client.enqueueMany(
      ['a', 'b'].map((doc) => ({ job: index, payload: { doc } })),
    );
    await workers.start(driver, [index]);
    for (const { id } of jobs) {
      const failed = (await driveToState(driver, clock, id, 'failed')) as JobRecord;
      expect(failed.lastError?.message).toBe(
        'the batch handler of docs.index answered 1 entries for 2 jobs: it must answer one entry (a result or an Error) per item, in order',
      );
    }
  });

  it('leaves out of its batch a job aborted while it waited (its timeout), which fails JOB_TIMEOUT', async () => {
    const { driver, clock } = memoryOnManualClock();
    const batches: string[][] = [];
    const index = defineBatchJob<Doc>({
      name: 'docs.index',
      batch: { size: 2, waitMs: 1_000 },
      timeout: 300,
      retry: { maxAttempts: 1, deadLetter: false },
      run: (items) => {
        batches.push(items.map((item) => item.payload.doc));
        return items.map(() => null);
      },
    });
    const client = createClient({ driver, jobs: [index] });
    await workers.start(driver, [index]);
    const early = await client.enqueue(index, { doc: 'early' });
    const failed = await driveToState(driver, clock, early.id, 'failed');
    expect(failed.lastError?.code).toBe('JOB_TIMEOUT');
    // Two more fill a batch at once, before their own timeouts.
    const late = await client.enqueueMany(
      ['late-1', 'late-2'].map((doc) => ({ job: index, payload: { doc } })),
    );
    for (const { id } of late) await driveToState(driver, clock, id, 'completed');
    expect(batches).toEqual([['late-1', 'late-2']]);
  });

  it('aborts the batch signal only once every job of the batch was aborted', async () => {
    const { driver, clock } = memoryOnManualClock();
    const entered = gate();
    let signal: AbortSignal | undefined;
    const index = defineBatchJob<Doc>({
      name: 'docs.index',
      batch: { size: 2, waitMs: 100 },
      timeout: 1_000,
      retry: { maxAttempts: 1, deadLetter: false },
      run: async (items, context) => {
        signal = context.signal;
        entered.open();
        await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
        return items.map(() => null);
      },
    });
    const client = createClient({ driver, jobs: [index] });
    const jobs = await client.enqueueMany(
      ['a', 'b'].map((doc) => ({ job: index, payload: { doc } })),
    );
    await workers.start(driver, [index]);
    await entered.promise;
    expect(signal?.aborted).toBe(false);
    for (const { id } of jobs) await driveToState(driver, clock, id, 'failed');
    expect(signal?.aborted).toBe(true);
  });

  it('refuses a batch size or wait outside its range, and a batch job without run', () => {
    const run = (items: readonly BatchItem<Doc>[]) => items.map(() => null);
    for (const [batch, field] of [
      [{ size: 0, waitMs: 10 }, 'batch.size'],
      [{ size: 1_001, waitMs: 10 }, 'batch.size'],
      [{ size: 1.5, waitMs: 10 }, 'batch.size'],
      [{ size: 10, waitMs: -1 }, 'batch.waitMs'],
      [{ size: 10, waitMs: 60_001 }, 'batch.waitMs'],
    ] as const) {
      const error = thrownBy(() => defineBatchJob<Doc>({ name: 'docs.index', batch, run }));
      expect(isBerthError(error) && error.code).toBe('CONFIG_INVALID');
      expect((error as Error).message).toContain(field);
    }
    const noBatch = thrownBy(() =>
      defineBatchJob<Doc>({ name: 'docs.index', run } as unknown as Parameters<
        typeof defineBatchJob<Doc>
      >[0]),
    );
    expect(isBerthError(noBatch) && noBatch.code).toBe('CONFIG_INVALID');
  });

  it('types the items by the payload and the result by what run answers per item', () => {
    const index = defineBatchJob<Doc>()({
      name: 'docs.index',
      batch: { size: 2, waitMs: 10 },
      run: (items) => {
        expectTypeOf(items[0]?.payload).toEqualTypeOf<Doc | undefined>();
        return items.map((item) =>
          item.payload.doc === '' ? new Error('empty') : { length: item.payload.doc.length },
        );
      },
    });
    expectTypeOf<JobResultOf<typeof index>>().toEqualTypeOf<{ length: number }>();
    const contract = declareJob<Doc, { length: number }>({ name: 'docs.index' });
    const implemented = implementBatchJob(contract, {
      batch: { size: 2, waitMs: 10 },
      run: (items) => items.map((item) => ({ length: item.payload.doc.length })),
    });
    expect(implemented.batch).toEqual({ size: 2, waitMs: 10 });
  });
});
