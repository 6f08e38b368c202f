import { describe, expect, it } from 'vitest';
import {
  type BackfillPassContext,
  type BackfillRun,
  type BackfillTransaction,
  createClient,
  type Driver,
  defineBackfill,
  isBerthError,
  type ManualClock,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveUntil, gate } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const workers = testWorkers({ visibilityTimeoutMs: 30_000, pollIntervalMs: 50, concurrency: 2 });

/** A collection of `size` ids and a count of how often each was processed. */
function collection(size: number) {
  const done = new Map<number, number>();
  const ids = Array.from({ length: size }, (_, index) => index + 1);
  /** Takes up to `limit` ids after `cursor` and marks them; null next once the last was taken. */
  const take = (cursor: unknown, limit: number) => {
    const after = typeof cursor === 'number' ? cursor : 0;
    const batch = ids.filter((id) => id > after).slice(0, limit);
    const last = batch.at(-1) ?? after;
    return { batch, rows: batch.length, next: last >= size ? null : last };
  };
  const mark = (batch: readonly number[]) => {
    for (const id of batch) done.set(id, (done.get(id) ?? 0) + 1);
  };
  const twice = () => [...done].filter(([, times]) => times > 1).map(([id]) => id);
  return { done, take, mark, twice };
}

async function runUntil(
  driver: Driver,
  clock: ManualClock,
  runId: string,
  status: BackfillRun['status'],
): Promise<BackfillRun> {
  let run: BackfillRun | undefined;
  await driveUntil(
    clock,
    async () => {
      run = await driver.backfills.get(runId);
      return run?.status === status;
    },
    { what: `run ${runId} is ${status}` },
  );
  return run as BackfillRun;
}

describe('backfills: the runner', () => {
  it('walks the whole collection in passes of batch rows, each row once, and completes the run with its counts', async () => {
    const { driver, clock } = memoryOnManualClock();
    const rows = collection(1_000);
    const reindex = defineBackfill({
      name: 'reindex',
      batch: 100,
      pass: async ({ cursor, limit }) => {
        const { batch, ...answer } = rows.take(cursor, limit);
        rows.mark(batch);
        return answer;
      },
    });
    const client = createClient({ driver });
    await workers.start(driver, [reindex]);
    const started = await client.backfills.start(reindex);
    expect(started).toMatchObject({ name: 'reindex', status: 'running', passes: 0 });
    const run = await runUntil(driver, clock, started.runId, 'completed');
    expect(run).toMatchObject({ passes: 10, rowsDone: 1_000, cursor: null });
    expect(rows.done.size).toBe(1_000);
    expect(rows.twice()).toEqual([]);
    await driveUntil(clock, async () => (await driver.get(run.jobId))?.state === 'completed');
    expect((await driver.get(run.jobId))?.result).toEqual({
      status: 'completed',
      passes: 10,
      rowsDone: 1_000,
    });
  });

  it('a pass that fails is retried from the last committed cursor: no committed pass runs again', async () => {
    const { driver, clock } = memoryOnManualClock();
    const rows = collection(500);
    let failures = 0;
    const flaky = defineBackfill({
      name: 'flaky',
      batch: 100,
      retry: { maxAttempts: 5, backoff: { initialMs: 10, factor: 1, maxMs: 10, jitter: 0 } },
      pass: async ({ cursor, limit }) => {
        const { batch, ...answer } = rows.take(cursor, limit);
        if (cursor === 200 && failures < 2) {
          failures += 1;
          throw new Error('the search index timed out');
        }
        rows.mark(batch);
        return answer;
      },
    });
    const client = createClient({ driver });
    await workers.start(driver, [flaky]);
    const { runId } = await client.backfills.start(flaky);
    const run = await runUntil(driver, clock, runId, 'completed');
    expect(run).toMatchObject({
      passes: 5,
      rowsDone: 500,
      lastError: 'Error: the search index timed out',
    });
    expect(rows.twice()).toEqual([]);
    expect(rows.done.size).toBe(500);
  });

  it("a pass that fails on the job's last attempt fails the run with the error; the run's cursor stays at the last commit", async () => {
    const { driver, clock } = memoryOnManualClock();
    const rows = collection(300);
    const broken = defineBackfill({
      name: 'broken',
      batch: 100,
      retry: { maxAttempts: 2, backoff: { initialMs: 10, factor: 1, maxMs: 10, jitter: 0 } },
      pass: async ({ cursor, limit }) => {
        if (cursor === 100) throw new Error('column "email" does not exist');
        const { batch, ...answer } = rows.take(cursor, limit);
        rows.mark(batch);
        return answer;
      },
    });
    const client = createClient({ driver });
    await workers.start(driver, [broken]);
    const { runId } = await client.backfills.start(broken);
    const run = await runUntil(driver, clock, runId, 'failed');
    expect(run).toMatchObject({
      cursor: 100,
      passes: 1,
      rowsDone: 100,
      lastError: 'Error: column "email" does not exist',
    });
    expect(run.finishedAt).toBe(run.updatedAt);
    await expect(client.backfills.resume(runId)).rejects.toMatchObject({
      code: 'BACKFILL_NOT_ACTIVE',
      meta: { runId, status: 'failed' },
    });
    const again = await client.backfills.start(broken, { cursor: run.cursor });
    expect(again.cursor).toBe(100);
  });

  it('pause stops the run after the pass in flight commits; resume goes on from the committed cursor with a new runner job, each row once', async () => {
    const { driver, clock } = memoryOnManualClock();
    const rows = collection(400);
    const inPass = gate();
    const release = gate();
    let held = false;
    const slow = defineBackfill({
      name: 'slow',
      batch: 100,
      pass: async ({ cursor, limit }) => {
        const { batch, ...answer } = rows.take(cursor, limit);
        if (cursor === 100 && !held) {
          held = true;
          inPass.open();
          await release.promise;
        }
        rows.mark(batch);
        return answer;
      },
    });
    const client = createClient({ driver });
    await workers.start(driver, [slow]);
    const started = await client.backfills.start(slow);
    await inPass.promise;
    expect(await client.backfills.pause(started.runId)).toMatchObject({ status: 'paused' });
    expect((await client.backfills.pause(started.runId)).status).toBe('paused');
    release.open();
    await driveUntil(clock, async () => (await driver.get(started.jobId))?.state === 'completed');
    const paused = await client.backfills.get(started.runId);
    expect(paused).toMatchObject({ status: 'paused', passes: 2, rowsDone: 200, cursor: 200 });
    const resumed = await client.backfills.resume(started.runId);
    expect(resumed.status).toBe('running');
    expect(resumed.jobId).not.toBe(started.jobId);
    const run = await runUntil(driver, clock, started.runId, 'completed');
    expect(run.rowsDone).toBe(400);
    expect(rows.twice()).toEqual([]);
  });

  it('one run per name: a second start is BACKFILL_RUNNING naming the active run; after a cancel a new run starts; concurrency lets several run', async () => {
    const { driver } = memoryOnManualClock();
    const noop = async () => ({ rows: 0, next: null });
    const one = defineBackfill({ name: 'one', pass: noop });
    const two = defineBackfill({ name: 'two', pass: noop, concurrency: 2 });
    const client = createClient({ driver });
    const first = await client.backfills.start(one);
    const refused = await client.backfills.start(one).catch((error: unknown) => error);
    expect(isBerthError(refused, 'BACKFILL_RUNNING')).toBe(true);
    expect(refused).toMatchObject({ meta: { name: 'one', active: [first.runId] } });
    expect((await client.backfills.cancel(first.runId)).status).toBe('cancelled');
    expect((await client.backfills.cancel(first.runId)).status).toBe('cancelled');
    await expect(client.backfills.pause(first.runId)).rejects.toMatchObject({
      code: 'BACKFILL_NOT_ACTIVE',
    });
    await client.backfills.start(one);
    await client.backfills.start(two);
    await client.backfills.start(two);
    await expect(client.backfills.start(two)).rejects.toMatchObject({ code: 'BACKFILL_RUNNING' });
    await expect(client.backfills.pause(crypto.randomUUID())).rejects.toMatchObject({
      code: 'BACKFILL_NOT_FOUND',
    });
    expect((await client.backfills.list({ name: 'two' })).length).toBe(2);
  });

  it('resume of a running run whose runner job is gone (dead on its last attempt) hands it to a new job, which finishes it', async () => {
    const { driver, clock } = memoryOnManualClock();
    const rows = collection(200);
    const walk = defineBackfill({
      name: 'walk',
      batch: 100,
      pass: async ({ cursor, limit }) => {
        const { batch, ...answer } = rows.take(cursor, limit);
        rows.mark(batch);
        return answer;
      },
    });
    const client = createClient({ driver });
    const started = await client.backfills.start(walk);
    // The runner job is lost before any worker ran it (an operator deleted it).
    await driver.delete(started.jobId);
    expect((await client.backfills.get(started.runId))?.status).toBe('running');
    const resumed = await client.backfills.resume(started.runId);
    expect(resumed.jobId).not.toBe(started.jobId);
    expect(await client.backfills.resume(started.runId)).toEqual(resumed);
    await workers.start(driver, [walk]);
    const run = await runUntil(driver, clock, started.runId, 'completed');
    expect(run.rowsDone).toBe(200);
  });

  it('with a transaction, a pass whose commit does not land is rolled back: a runner the run was taken from leaves no write', async () => {
    const { driver, clock } = memoryOnManualClock();
    const committed: number[] = [];
    /** A transaction over an array: writes land in `committed` only when the work resolves. */
    const transaction: BackfillTransaction<number[]> = {
      async run(work) {
        const writes: number[] = [];
        const answer = await work(writes, driver.backfills);
        committed.push(...writes);
        return answer;
      },
    };
    const rows = collection(300);
    const inPass = gate();
    const release = gate();
    let held = false;
    const pass = async ({ cursor, limit, tx }: BackfillPassContext<number[]>) => {
      const { batch, ...answer } = rows.take(cursor, limit);
      if (cursor === 100 && !held) {
        held = true;
        inPass.open();
        await release.promise;
      }
      tx.push(...batch);
      return answer;
    };
    const inTx = defineBackfill({ name: 'in-tx', batch: 100, transaction, pass });
    const client = createClient({ driver });
    await workers.start(driver, [inTx], { concurrency: 2 });
    const started = await client.backfills.start(inTx);
    await inPass.promise;
    // Paused and resumed while a pass is in flight: the run now belongs to a new runner job.
    await client.backfills.pause(started.runId);
    const resumed = await client.backfills.resume(started.runId);
    await runUntil(driver, clock, started.runId, 'completed');
    release.open();
    await driveUntil(clock, async () => (await driver.get(started.jobId))?.state === 'completed');
    expect(resumed.jobId).not.toBe(started.jobId);
    expect(committed.length).toBe(300);
    expect(new Set(committed).size).toBe(300);
    expect((await client.backfills.get(started.runId))?.rowsDone).toBe(300);
  });

  it('a drained worker stops between passes and hands the runner job back; another worker goes on from the committed cursor, each row once', async () => {
    const { driver, clock } = memoryOnManualClock();
    const rows = collection(300);
    const inPass = gate();
    let held = false;
    const walk = defineBackfill({
      name: 'walk',
      batch: 100,
      pass: async ({ cursor, limit, signal }) => {
        const { batch, ...answer } = rows.take(cursor, limit);
        if (cursor === 100 && !held) {
          held = true;
          inPass.open();
          // A pass that honours its signal: the drain aborts it before it marks anything.
          await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
          signal.throwIfAborted();
        }
        rows.mark(batch);
        return answer;
      },
    });
    const client = createClient({ driver });
    const first = await workers.start(driver, [walk]);
    const started = await client.backfills.start(walk);
    await inPass.promise;
    await first.stop({ graceMs: 0 });
    expect(await client.backfills.get(started.runId)).toMatchObject({
      status: 'running',
      cursor: 100,
      rowsDone: 100,
      jobId: started.jobId,
    });
    expect((await driver.get(started.jobId))?.state).toBe('ready');
    await workers.start(driver, [walk]);
    const run = await runUntil(driver, clock, started.runId, 'completed');
    expect(run).toMatchObject({ rowsDone: 300, passes: 3, jobId: started.jobId });
    expect(rows.twice()).toEqual([]);
  });

  it('rateLimit paces the run: 300 rows at 100 rows per 100 ms take at least 200 ms of passes', async () => {
    const { driver, clock } = memoryOnManualClock();
    const rows = collection(300);
    const startedAt: number[] = [];
    const paced = defineBackfill({
      name: 'paced',
      batch: 100,
      rateLimit: { rows: 100, intervalMs: 100 },
      pass: async ({ cursor, limit }) => {
        startedAt.push(performance.now());
        const { batch, ...answer } = rows.take(cursor, limit);
        rows.mark(batch);
        return answer;
      },
    });
    const client = createClient({ driver });
    await workers.start(driver, [paced]);
    const before = performance.now();
    const { runId } = await client.backfills.start(paced);
    await runUntil(driver, clock, runId, 'completed');
    expect(startedAt.length).toBe(3);
    // Each pass of 100 rows earns the next one 100 ms later, never sooner.
    expect((startedAt[2] as number) - before).toBeGreaterThanOrEqual(200);
  });

  it('defineBackfill refuses a bad name, pass, batch, concurrency or rateLimit with CONFIG_INVALID naming the option', () => {
    const pass = async () => ({ rows: 0 });
    const bad: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'name'],
      [{ pass: 'nope' }, 'pass'],
      [{ batch: 0 }, 'batch'],
      [{ concurrency: 1.5 }, 'concurrency'],
      [{ rateLimit: { rows: 10 } }, 'rateLimit.intervalMs'],
      [{ transaction: {} }, 'transaction'],
    ];
    for (const [options, option] of bad) {
      expect(() => defineBackfill({ name: 'n', pass, ...options } as never)).toThrow(
        expect.objectContaining({
          code: 'CONFIG_INVALID',
          meta: expect.objectContaining({ option }),
        }),
      );
    }
  });
});
