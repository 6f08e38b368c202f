import { createClient, defineJob } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { driveToState, driveUntil, outcomeOf } from './drive.js';
import { withWorker } from './harness.js';

/** A promise the scenario opens by hand, for a handler it holds running. */
function gate() {
  let open: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

export const debounceRunsTheLast: GoldenScenario = {
  name: 'debounce-runs-the-last',
  asserts:
    'three debounced enqueues 300 ms apart (ms 1000) run once, with the last payload, no sooner than 1000 ms after it; the earlier two settle cancelled JOB_SUPERSEDED unrun',
  async play(context) {
    const { driver, clock, note } = context;
    const ran: { n: number; quietMs: number }[] = [];
    let lastAt = 0;
    const sync = defineJob<{ n: number }>({
      name: 'sync',
      run: ({ payload }) => {
        ran.push({ n: payload.n, quietMs: clock.now() - lastAt >= 1_000 ? 1_000 : 0 });
      },
    });
    const client = createClient({ driver, jobs: [sync] });
    await withWorker(context, [sync], async () => {
      const debounce = { key: 'account-1', ms: 1_000 };
      const first = await client.enqueue(sync, { n: 1 }, { debounce });
      await clock.advance(300);
      const second = await client.enqueue(sync, { n: 2 }, { debounce });
      await clock.advance(300);
      lastAt = clock.now();
      const last = await client.enqueue(sync, { n: 3 }, { debounce });
      note('last settled', outcomeOf(await driveToState(driver, clock, last.id, 'completed')));
      note('first settled', outcomeOf(await driveToState(driver, clock, first.id, 'cancelled')));
      note('second settled', outcomeOf(await driveToState(driver, clock, second.id, 'cancelled')));
      note('handler runs (quiet ms before the run)', ran);
    });
  },
};

export const replaceRunsTheNewest: GoldenScenario = {
  name: 'replace-runs-the-newest',
  asserts:
    'whenBusy replace: of the jobs of a key enqueued while one runs, only the newest runs once the key frees; the older settles cancelled JOB_SUPERSEDED and the running one completes',
  async play(context) {
    const { driver, clock, note } = context;
    const ran: number[] = [];
    const started = gate();
    const release = gate();
    const render = defineJob<{ doc: string; rev: number }>({
      name: 'render',
      concurrency: { limit: 1, key: (payload) => payload.doc, whenBusy: 'replace' },
      run: async ({ payload }) => {
        ran.push(payload.rev);
        if (payload.rev === 1) {
          started.open();
          await release.promise;
        }
      },
    });
    const client = createClient({ driver, jobs: [render] });
    await withWorker(
      context,
      [render],
      async () => {
        const first = await client.enqueue(render, { doc: 'd', rev: 1 });
        await started.promise;
        const second = await client.enqueue(render, { doc: 'd', rev: 2 });
        await clock.advance(1);
        const third = await client.enqueue(render, { doc: 'd', rev: 3 });
        // Both are taken up and wait for the key before the first finishes.
        await driveUntil(
          clock,
          'the second is running',
          async () =>
            (await driver.get(second.id))?.state === 'running' ||
            (await driver.get(second.id))?.state === 'suspended',
        );
        release.open();
        note('third settled', outcomeOf(await driveToState(driver, clock, third.id, 'completed')));
        note(
          'second settled',
          outcomeOf(await driveToState(driver, clock, second.id, 'cancelled')),
        );
        note('first settled', outcomeOf(await driveToState(driver, clock, first.id, 'completed')));
        note('handler runs', ran);
      },
      { concurrency: 3 },
    );
  },
};

export const skipCancelsBusy: GoldenScenario = {
  name: 'skip-cancels-busy',
  asserts:
    'whenBusy skip: a job taken up while its key runs is not started and settles cancelled JOB_SKIPPED; once the key is free the next job runs',
  async play(context) {
    const { driver, clock, note } = context;
    const ran: number[] = [];
    const started = gate();
    const release = gate();
    const refresh = defineJob<{ account: string; n: number }>({
      name: 'refresh',
      concurrency: { limit: 1, key: (payload) => payload.account, whenBusy: 'skip' },
      run: async ({ payload }) => {
        ran.push(payload.n);
        if (payload.n === 1) {
          started.open();
          await release.promise;
        }
      },
    });
    const client = createClient({ driver, jobs: [refresh] });
    const cancelled: string[] = [];
    await withWorker(
      context,
      [refresh],
      async () => {
        const first = await client.enqueue(refresh, { account: 'a', n: 1 });
        await started.promise;
        const busy = await client.enqueue(refresh, { account: 'a', n: 2 });
        note('busy settled', outcomeOf(await driveToState(driver, clock, busy.id, 'cancelled')));
        release.open();
        note('first settled', outcomeOf(await driveToState(driver, clock, first.id, 'completed')));
        const after = await client.enqueue(refresh, { account: 'a', n: 3 });
        note('after settled', outcomeOf(await driveToState(driver, clock, after.id, 'completed')));
        note('handler runs', ran);
        note('cancelled events', cancelled);
      },
      {
        concurrency: 2,
        on: (worker) => worker.on('cancelled', ({ error }) => cancelled.push(error.code ?? '')),
      },
    );
  },
};

export const throttleOnePerWindow: GoldenScenario = {
  name: 'throttle-one-per-window',
  asserts:
    'enqueues with throttle { key, ms } make one job per key per window: a second in the window answers the first, deduped, whatever its state; the next window makes another',
  async play(context) {
    const { driver, clock, note } = context;
    const ran: number[] = [];
    const sync = defineJob<{ n: number }>({
      name: 'sync',
      run: ({ payload }) => {
        ran.push(payload.n);
      },
    });
    const client = createClient({ driver, jobs: [sync] });
    await withWorker(context, [sync], async () => {
      const throttle = { key: 'account-1', ms: 60_000 };
      // The kit clock starts on a minute: the window runs to +60 s.
      const first = await client.enqueue(sync, { n: 1 }, { throttle });
      await driveToState(driver, clock, first.id, 'completed');
      const again = await client.enqueue(sync, { n: 2 }, { throttle });
      note('a second enqueue in the window', {
        sameJob: again.id === first.id,
        deduped: again.deduped,
      });
      const other = await client.enqueue(
        sync,
        { n: 3 },
        { throttle: { key: 'account-2', ms: 60_000 } },
      );
      note('another key', { sameJob: other.id === first.id, deduped: other.deduped });
      await driveToState(driver, clock, other.id, 'completed');
      await clock.advance(60_000);
      const next = await client.enqueue(sync, { n: 4 }, { throttle });
      note('the next window', { sameJob: next.id === first.id, deduped: next.deduped });
      await driveToState(driver, clock, next.id, 'completed');
      note('handler runs', ran);
    });
  },
};
