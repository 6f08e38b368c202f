import { describe, expect, it } from 'vitest';
import { createClient, defineJob, isBerthError, type JobRecord } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, driveUntil, gate, settleTicks } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const workers = testWorkers({ visibilityTimeoutMs: 30_000, concurrency: 4, pollIntervalMs: 20 });

/** What `run` threw, or undefined. */
async function thrown(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('debounce: one run after the quiet period, with the last payload', () => {
  it('three enqueues 300 ms apart with ms 1000 run once, 1000 ms after the last, with its payload; the others settle cancelled JOB_SUPERSEDED unrun', async () => {
    const { driver, clock } = memoryOnManualClock();
    const ran: { n: number; at: number }[] = [];
    const sync = defineJob<{ n: number }>({
      name: 'search.sync',
      run: ({ payload }) => {
        ran.push({ n: payload.n, at: clock.now() });
      },
    });
    const client = createClient({ driver });
    const worker = await workers.start(driver, [sync]);
    const cancelled: string[] = [];
    worker.on('cancelled', ({ job, error }) => cancelled.push(`${job.id}:${error.code}`));
    const t0 = clock.now();
    const debounce = { key: 'account-1', ms: 1_000 };
    const first = await client.enqueue(sync, { n: 1 }, { debounce });
    await clock.advance(300);
    const second = await client.enqueue(sync, { n: 2 }, { debounce });
    await clock.advance(300);
    const last = await client.enqueue(sync, { n: 3 }, { debounce });
    await driveToState(driver, clock, last.id, 'completed');
    expect(ran).toEqual([{ n: 3, at: t0 + 1_600 }]);
    for (const { id } of [first, second]) {
      const record = (await driver.get(id)) as JobRecord;
      expect(record.state).toBe('cancelled');
      expect(record.lastError?.code).toBe('JOB_SUPERSEDED');
    }
    expect(cancelled.sort()).toEqual(
      [`${first.id}:JOB_SUPERSEDED`, `${second.id}:JOB_SUPERSEDED`].sort(),
    );
  });

  it('keys and tenants debounce apart, and an enqueue after the run started makes a run of its own', async () => {
    const { driver, clock } = memoryOnManualClock();
    const ran: string[] = [];
    const started = gate();
    const release = gate();
    const sync = defineJob<{ tag: string }>({
      name: 'search.sync',
      run: async ({ payload }) => {
        ran.push(payload.tag);
        if (payload.tag === 'a1') {
          started.open();
          await release.promise;
        }
      },
    });
    const client = createClient({ driver });
    await workers.start(driver, [sync]);
    await client.enqueue(sync, { tag: 'a1' }, { debounce: { key: 'a', ms: 100 } });
    await client.enqueue(sync, { tag: 'b1' }, { debounce: { key: 'b', ms: 100 } });
    await client.enqueue(sync, { tag: 't1' }, { debounce: { key: 'a', ms: 100 }, tenantId: 't' });
    await driveUntil(clock, () => ran.length === 3);
    await started.promise;
    // a1 is running: a new enqueue of key a is a new run, a1 finishes.
    const again = await client.enqueue(sync, { tag: 'a2' }, { debounce: { key: 'a', ms: 100 } });
    release.open();
    await driveToState(driver, clock, again.id, 'completed');
    expect(ran.sort()).toEqual(['a1', 'a2', 'b1', 't1']);
  });

  it('a bad debounce, or one given with id, throttle, runAt or delay, is JOB_INVALID naming the field, and nothing is enqueued', async () => {
    const { driver } = memoryOnManualClock();
    const sync = defineJob<{ n: number }>({ name: 'search.sync', run: () => {} });
    const client = createClient({ driver });
    const debounce = { key: 'k', ms: 100 };
    const cases: [Record<string, unknown>, string][] = [
      [{ debounce: { key: '', ms: 100 } }, 'debounce.key'],
      [{ debounce: { key: 'k', ms: 0 } }, 'debounce.ms'],
      [{ debounce: { key: 'k', ms: 2.5 } }, 'debounce.ms'],
      [{ debounce: 'k' }, 'debounce'],
      [{ debounce, id: '0190c1a0-0000-4000-8000-00000000000a' }, 'debounce'],
      [{ debounce, throttle: { key: 'k', ms: 100 } }, 'debounce'],
      [{ debounce, delay: 5 }, 'debounce'],
      [{ debounce, runAt: 5 }, 'debounce'],
    ];
    for (const [options, field] of cases) {
      const error = await thrown(() => client.enqueue(sync, { n: 1 }, options as never));
      expect(isBerthError(error, 'JOB_INVALID') && error.meta.field, JSON.stringify(options)).toBe(
        field,
      );
    }
    expect((await driver.list({})).jobs).toEqual([]);
  });
});

describe('concurrency.whenBusy', () => {
  it('replace: jobs of a key enqueued while one runs are superseded by the newest, which runs with the latest payload; the running one finishes', async () => {
    const { driver, clock } = memoryOnManualClock();
    const ran: number[] = [];
    const started = gate();
    const release = gate();
    const render = defineJob<{ doc: string; rev: number }>({
      name: 'doc.render',
      concurrency: { limit: 1, key: (payload) => payload.doc, whenBusy: 'replace' },
      run: async ({ payload }) => {
        ran.push(payload.rev);
        if (payload.rev === 1) {
          started.open();
          await release.promise;
        }
      },
    });
    const client = createClient({ driver });
    await workers.start(driver, [render]);
    const first = await client.enqueue(render, { doc: 'd', rev: 1 });
    await started.promise;
    const second = await client.enqueue(render, { doc: 'd', rev: 2 });
    await clock.advance(1);
    const third = await client.enqueue(render, { doc: 'd', rev: 3 });
    const other = await client.enqueue(render, { doc: 'e', rev: 10 });
    await driveToState(driver, clock, other.id, 'completed');
    release.open();
    await driveToState(driver, clock, third.id, 'completed');
    await driveToState(driver, clock, second.id, 'cancelled');
    expect((await driver.get(first.id))?.state).toBe('completed');
    expect((await driver.get(second.id))?.lastError?.code).toBe('JOB_SUPERSEDED');
    expect(ran).toEqual([1, 10, 3]);
  });

  it('skip: a job whose key is running is not started and settles cancelled JOB_SKIPPED at once; once the key is free a new job runs', async () => {
    const { driver, clock } = memoryOnManualClock();
    const ran: number[] = [];
    const started = gate();
    const release = gate();
    const refresh = defineJob<{ account: string; n: number }>({
      name: 'account.refresh',
      concurrency: { limit: 1, key: (payload) => payload.account, whenBusy: 'skip' },
      run: async ({ payload }) => {
        ran.push(payload.n);
        if (payload.n === 1) {
          started.open();
          await release.promise;
        }
      },
    });
    const client = createClient({ driver });
    const worker = await workers.start(driver, [refresh]);
    const skipped: string[] = [];
    worker.on('cancelled', ({ error }) => skipped.push(error.code ?? ''));
    await client.enqueue(refresh, { account: 'a', n: 1 });
    await started.promise;
    const busy = await client.enqueue(refresh, { account: 'a', n: 2 });
    const record = await driveToState(driver, clock, busy.id, 'cancelled');
    expect(record.lastError).toEqual({
      code: 'JOB_SKIPPED',
      message: 'its concurrency key was busy (whenBusy: skip)',
    });
    expect(skipped).toEqual(['JOB_SKIPPED']);
    release.open();
    await settleTicks();
    const after = await client.enqueue(refresh, { account: 'a', n: 3 });
    await driveToState(driver, clock, after.id, 'completed');
    expect(ran).toEqual([1, 3]);
  });

  it('a whenBusy that is not queue, skip or replace is CONFIG_INVALID naming the job and concurrency.whenBusy', () => {
    expect(() =>
      defineJob({ name: 'x', concurrency: { limit: 1, whenBusy: 'drop' as never }, run: () => {} }),
    ).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        meta: expect.objectContaining({ option: 'job x: concurrency.whenBusy' }),
      }),
    );
  });
});
