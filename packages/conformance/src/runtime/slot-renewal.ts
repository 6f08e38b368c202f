import { createClient, defineJob } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { driveToState, driveUntil, outcomeOf } from './drive.js';
import { startWorker, withWorker } from './harness.js';
import { failingRenewals, type RenewalFailure } from './renewal-failure.js';
import { withSlots } from './slots.js';

/**
 * The first worker's slot renewals fail while its lease renews; another worker waits for the
 * key. The attempt must end before its slot's ttl runs out, whatever way the renewals fail.
 */
const slotRenewalScenario = (
  name: string,
  asserts: string,
  failure: RenewalFailure,
): GoldenScenario => ({
  name,
  asserts,
  async play(context) {
    const { driver, clock, note } = context;
    const renewals = failingRenewals(failure);
    const flaky = withSlots(driver, {
      renewSlot: (key, holder, ttl) =>
        renewals.run(() => driver.leases.renewSlot(key, holder, ttl)),
    });
    const running = new Set<number>();
    const runs: number[] = [];
    let most = 0;
    let aborted: unknown;
    let letGo = (): void => {};
    const sync = defineJob({
      name: 'sync',
      concurrency: { limit: 1 },
      run: ({ payload, signal }) => {
        const n = (payload as { n: number }).n;
        running.add(n);
        runs.push(n);
        most = Math.max(most, running.size);
        if (n !== 1 || runs.length > 1) {
          running.delete(n);
          return n;
        }
        // The first run holds its key until its signal aborts (or the scenario lets it go).
        return new Promise<number>((resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted = (signal.reason as { code?: string }).code;
            running.delete(n);
            reject(signal.reason);
          });
          letGo = () => {
            running.delete(n);
            resolve(n);
          };
        });
      },
    });
    const lost: string[] = [];
    // One job at a time per worker; renewed every second, the slot's ttl (the lease's) is 3 s.
    const settings = { concurrency: 1, visibilityTimeoutMs: 3_000, keyBusyDelayMs: 100 };
    const client = createClient({ driver, jobs: [sync] });
    await withWorker(
      context,
      [sync],
      async () => {
        const first = await client.enqueue(sync, { n: 1 });
        await driveUntil(clock, 'the first handler runs', () => running.has(1));
        // Another process, whose renewals work, takes the second job of the key: it gets the
        // slot once the first worker's slot has really gone.
        const other = await startWorker(driver, [sync], settings);
        try {
          const second = await client.enqueue(sync, { n: 2 });
          await driveUntil(
            clock,
            'the first handler is aborted, or the second starts beside it',
            () => aborted !== undefined || runs.includes(2),
          );
          note('what the first handler saw', aborted);
          note('most handlers of the key at once', most);
          renewals.heal();
          letGo();
          note(
            'first settled',
            outcomeOf(await driveToState(driver, clock, first.id, 'completed')),
          );
          note(
            'second settled',
            outcomeOf(await driveToState(driver, clock, second.id, 'completed')),
          );
        } finally {
          await other.stop();
        }
        note('lease-lost events', lost);
        note('most handlers of the key at once, in the end', most);
      },
      {
        ...settings,
        driver: flaky,
        on: (worker) => worker.on('lease-lost', ({ error }) => lost.push(error.code)),
      },
    );
  },
});

export const failingSlotRenewalAborts = slotRenewalScenario(
  'failing-slot-renewal-aborts',
  'concurrency slot renewals that keep failing while the lease renews abort the attempt before the slot’s ttl runs out: a limit of 1 per key holds',
  'throws',
);

export const hangingSlotRenewalAborts = slotRenewalScenario(
  'hanging-slot-renewal-aborts',
  'a concurrency slot renewal that never answers while the lease renews aborts the attempt before the slot’s ttl runs out: a limit of 1 per key holds',
  'hangs',
);
