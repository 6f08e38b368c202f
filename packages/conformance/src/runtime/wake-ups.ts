import { createClient, type Driver, defineJob } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { withWorker } from './harness.js';
import { wrapDriver } from './wrap-driver.js';

/** Longer than any scenario here: a poll or a key-busy delay never comes. */
export const NEVER_MS = 3_600_000;
const REAL_ROUNDS = 1_000;

const realPause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits in real time only, the kit clock left where it stands: whatever happens must come from
 * a wake, a release or a local timer, never from a poll.
 */
export async function waitReal(what: string, done: () => Promise<boolean>): Promise<void> {
  for (let round = 0; round < REAL_ROUNDS; round += 1) {
    if (await done()) return;
    await realPause(5);
  }
  throw new Error(`runtime scenario: gave up waiting (real time, no clock moves) until ${what}`);
}

const stateOf = async (driver: Driver, id: string) => (await driver.get(id))?.state;

export const freedSlotStartsNextJob: GoldenScenario = {
  name: 'freed-slot-starts-next-job',
  asserts:
    'ten jobs on one key with limit 1 run back to back: each ending job hands its slot straight to the next, with no poll, no key-busy delay, no bounce and no claim per job',
  async play(context) {
    const { driver, clock, note } = context;
    const slotCalls = { acquireSlot: 0, releaseSlot: 0 };
    const leases = new Proxy(driver.leases, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (property === 'acquireSlot' || property === 'releaseSlot') slotCalls[property] += 1;
          return value.apply(target, args);
        };
      },
    });
    const counted = wrapDriver(
      new Proxy(driver, {
        get: (target, property, receiver) =>
          property === 'leases' ? leases : Reflect.get(target, property, receiver),
      }),
      {},
    );
    let now = 0;
    let most = 0;
    const sync = defineJob({
      name: 'sync',
      concurrency: { limit: 1, key: () => 'account-1' },
      async run() {
        now += 1;
        most = Math.max(most, now);
        await realPause(10);
        now -= 1;
      },
    });
    const client = createClient({ driver, jobs: [sync] });
    const t = clock.now();
    await withWorker(
      context,
      [sync],
      async () => {
        const ids = (
          await client.enqueueMany(Array.from({ length: 10 }, () => ({ job: sync, payload: null })))
        ).map((result) => result.id);
        const completed = async () =>
          (await Promise.all(ids.map((id) => stateOf(driver, id)))).filter(
            (state) => state === 'completed',
          ).length;
        await waitReal('all ten completed', async () => (await completed()) === 10);
        note('jobs completed', await completed());
        note('most running at once', most);
        note('kit clock moved, ms', clock.now() - t);
        // The worker that holds the key keeps its next jobs and hands the slot on in memory:
        // a bounce-and-reclaim chain (or a poll-driven one) claims and asks far more.
        note('claims per job below 1', (counted.calls.claim ?? 0) / ids.length < 1);
        note('bounces', counted.calls.suspend ?? 0);
        note('slot acquires per job below 0.5', slotCalls.acquireSlot / ids.length < 0.5);
      },
      {
        driver: counted.driver,
        concurrency: 10,
        pollIntervalMs: NEVER_MS,
        keyBusyDelayMs: NEVER_MS,
        settleBatchMs: 0,
      },
    );
  },
};

export const dueTimesWakeTheWorker: GoldenScenario = {
  name: 'due-times-wake-the-worker',
  asserts:
    'a due retry, a due sleep and a due delayed job start when their instant comes, on the worker that knows of them, with no poll',
  async play(context) {
    const { driver, clock, note } = context;
    const t0 = clock.now();
    const flaky = defineJob({
      name: 'flaky',
      retry: { maxAttempts: 2, backoff: { initialMs: 500, jitter: 0 } },
      async run({ attempt }) {
        if (attempt === 1) throw new Error('first attempt fails');
        return 'retried';
      },
    });
    const nap = defineJob({
      name: 'nap',
      async run({ step }) {
        await step.sleep('nap', 700);
        return 'woke';
      },
    });
    const later = defineJob({ name: 'later', run: async () => 'ran late' });
    const client = createClient({ driver, jobs: [flaky, nap, later] });
    await withWorker(
      context,
      [flaky, nap, later],
      async () => {
        const ids = {
          later: (await client.enqueue(later, null, { delay: 300 })).id,
          flaky: (await client.enqueue(flaky, null)).id,
          nap: (await client.enqueue(nap, null)).id,
        };
        const states = async () => ({
          later: await stateOf(driver, ids.later),
          flaky: await stateOf(driver, ids.flaky),
          nap: await stateOf(driver, ids.nap),
        });
        await waitReal('flaky waits to retry and nap sleeps', async () => {
          const now = await states();
          return now.flaky === 'delayed' && now.nap === 'suspended';
        });
        note('before any is due', await states());
        for (const [at, id] of [
          [300, ids.later],
          [500, ids.flaky],
          [700, ids.nap],
        ] as const) {
          await clock.set(t0 + at);
          await waitReal(`job due at +${at} ms completed`, async () => {
            return (await stateOf(driver, id)) === 'completed';
          });
          note(`at +${at} ms`, await states());
        }
      },
      { concurrency: 3, pollIntervalMs: NEVER_MS, settleBatchMs: 0 },
    );
  },
};
