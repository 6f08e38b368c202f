import { createClient, type Driver, defineJob, type SuspendReason } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { driveToState, driveUntil, outcomeOf } from './drive.js';
import { withWorker } from './harness.js';

/** The case's driver with its lease store's slot calls replaced. */
export function withSlots(
  driver: Driver,
  slots: Partial<Pick<Driver['leases'], 'acquireSlot' | 'renewSlot'>>,
): Driver {
  const leases = new Proxy(driver.leases, {
    get(target, property, receiver) {
      const replaced = (slots as Record<PropertyKey, unknown>)[property];
      if (replaced !== undefined) return replaced;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return new Proxy(driver, {
    get(target, property, receiver) {
      if (property === 'leases') return leases;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export const resumeTakesNoRateSlot: GoldenScenario = {
  name: 'resume-takes-no-rate-slot',
  asserts:
    'a 1 s sleep under a 1-per-10 s rate limit resumes when its sleep ends: a resume is no new start',
  async play(context) {
    const { driver, clock, note } = context;
    const nap = defineJob({
      name: 'nap',
      rateLimit: { limit: 1, intervalMs: 10_000 },
      async run({ step }) {
        await step.sleep('nap', 1_000);
        return 'woke';
      },
    });
    const reasons: SuspendReason[] = [];
    const client = createClient({ driver, jobs: [nap] });
    await withWorker(
      context,
      [nap],
      async () => {
        const { id } = await client.enqueue(nap, null);
        await driveToState(driver, clock, id, 'suspended');
        const parkedAt = clock.now();
        note('nap settled', outcomeOf(await driveToState(driver, clock, id, 'completed')));
        note(
          'resumed within 2 s, well before the rate interval ends',
          clock.now() - parkedAt < 2_000,
        );
        note('why it was parked', reasons);
      },
      { on: (worker) => worker.on('suspended', ({ reason }) => reasons.push(reason)) },
    );
  },
};

export const lostSlotAbortsAttempt: GoldenScenario = {
  name: 'lost-slot-aborts-attempt',
  asserts:
    'a concurrency slot renewal answering false aborts the attempt as a lost lease does, and the job is handed back with its attempt unspent',
  async play(context) {
    const { driver, clock, note } = context;
    let slotGone = true;
    const stalled = withSlots(driver, {
      renewSlot: async (key, holder, ttl) =>
        slotGone ? false : driver.leases.renewSlot(key, holder, ttl),
    });
    const seen: { attempt: number; resumed: boolean }[] = [];
    let aborted: unknown;
    const sync = defineJob({
      name: 'sync',
      retry: { maxAttempts: 1 },
      concurrency: { limit: 1 },
      run: ({ signal, attempt, job }) => {
        seen.push({ attempt, resumed: job.resumed });
        if (seen.length > 1) return 'synced';
        return new Promise<never>((_, reject) => {
          signal.addEventListener('abort', () => {
            aborted = (signal.reason as { code?: string }).code;
            reject(signal.reason);
          });
        });
      },
    });
    const lost: string[] = [];
    const client = createClient({ driver, jobs: [sync] });
    await withWorker(
      context,
      [sync],
      async () => {
        const { id } = await client.enqueue(sync, null);
        await driveUntil(
          clock,
          'the slot renewal aborted the handler',
          () => aborted !== undefined,
        );
        slotGone = false;
        note('what the handler saw', aborted);
        note('lease-lost events', lost);
        note('sync settled', outcomeOf(await driveToState(driver, clock, id, 'completed')));
        note('runs of the handler', seen);
      },
      {
        driver: stalled,
        // Renewed every second; long enough that the kit clock's nudges never lapse it.
        visibilityTimeoutMs: 3_000,
        on: (worker) => worker.on('lease-lost', ({ error }) => lost.push(error.code)),
      },
    );
  },
};

export const slotHeldUntilHandlerReturns: GoldenScenario = {
  name: 'slot-held-until-handler-returns',
  asserts:
    'an aborted handler that ignores its signal keeps its concurrency slot until it really returns: the limit is never exceeded',
  async play(context) {
    const { driver, clock, note } = context;
    let letGo = (): void => {};
    const stubborn = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const running = new Set<number>();
    const started = new Set<number>();
    let most = 0;
    const sync = defineJob({
      name: 'sync',
      concurrency: { limit: 1 },
      async run({ payload }) {
        const n = (payload as { n: number }).n;
        running.add(n);
        started.add(n);
        most = Math.max(most, running.size);
        if (n === 1) await stubborn;
        running.delete(n);
        return n;
      },
    });
    const client = createClient({ driver, jobs: [sync] });
    await withWorker(
      context,
      [sync],
      async () => {
        const first = await client.enqueue(sync, { n: 1 });
        await driveUntil(clock, 'the first handler runs', () => running.has(1));
        await driver.cancel(first.id);
        const second = await client.enqueue(sync, { n: 2 });
        // Two slot ttls: the slot is renewed while the aborted handler runs, never left to lapse.
        const until = clock.now() + 6_000;
        await driveUntil(clock, '6 s of kit time passed', () => clock.now() >= until);
        // Bounced off the slot over and over (suspended, or due and read as ready), never run.
        const row = await driver.get(second.id);
        note('second job while the first handler still runs', {
          started: started.has(2),
          settled: row?.finishedAt !== undefined,
        });
        letGo();
        note(
          'second settled',
          outcomeOf(await driveToState(driver, clock, second.id, 'completed')),
        );
        note('most handlers of the key at once', most);
      },
      { concurrency: 2, visibilityTimeoutMs: 3_000, keyBusyDelayMs: 100 },
    );
  },
};

export const slotBlipChargesNoAttempt: GoldenScenario = {
  name: 'slot-blip-charges-no-attempt',
  asserts:
    'a driver failure while taking a concurrency slot hands the job back without spending an attempt',
  async play(context) {
    const { driver, clock, note } = context;
    let failures = 1;
    const flaky = withSlots(driver, {
      acquireSlot: async (key, limit, holder, ttl) => {
        if (failures > 0) {
          failures -= 1;
          throw new Error('connection reset');
        }
        return driver.leases.acquireSlot(key, limit, holder, ttl);
      },
    });
    const attempts: number[] = [];
    const sync = defineJob({
      name: 'sync',
      retry: { maxAttempts: 1 },
      concurrency: { limit: 1 },
      run: ({ attempt }) => {
        attempts.push(attempt);
        return 'synced';
      },
    });
    const reasons: SuspendReason[] = [];
    const client = createClient({ driver, jobs: [sync] });
    await withWorker(
      context,
      [sync],
      async () => {
        const { id } = await client.enqueue(sync, null);
        note('sync settled', outcomeOf(await driveToState(driver, clock, id, 'completed')));
        note('attempts the handler saw', attempts);
        note('why it was parked', reasons);
      },
      {
        driver: flaky,
        keyBusyDelayMs: 100,
        on: (worker) => worker.on('suspended', ({ reason }) => reasons.push(reason)),
      },
    );
  },
};
