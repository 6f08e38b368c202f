import { createClient, defineJob } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { driveToState, driveUntil, outcomeOf, realPause } from './drive.js';
import { startWorker, withWorker } from './harness.js';
import { failingRenewals, type RenewalFailure } from './renewal-failure.js';
import { wrapDriver } from './wrap-driver.js';

/** The lease of the scenario's workers: renewed every second (a third of it). */
const LEASE_MS = 3_000;
/** How often, by the clock, the first handler begins a step. */
const STEP_EVERY_MS = 400;

/**
 * The first worker's lease renewals fail (a failover, a partition); its handler would go on
 * starting steps. The attempt must end by the worker's own clock before the lease runs out,
 * so when another worker takes the lapsed job over, the first starts no step beside it.
 */
const leaseRenewalScenario = (
  name: string,
  asserts: string,
  failure: RenewalFailure,
): GoldenScenario => ({
  name,
  asserts,
  async play(context) {
    const { driver, clock, note } = context;
    const renewals = failingRenewals(failure);
    const flaky = wrapDriver(driver, { extendMany: (call) => renewals.run(call) }).driver;
    const stepsStarted: string[] = [];
    let abortedAt: number | undefined;
    let aborted: unknown;
    let claimedAt = 0;
    const work = defineJob({
      name: 'work',
      run: async ({ step, signal, attempt }) => {
        if (attempt > 1) {
          stepsStarted.push('takeover');
          return 'taken over';
        }
        claimedAt = clock.now();
        signal.addEventListener('abort', () => {
          abortedAt = clock.now();
          aborted = (signal.reason as { code?: string }).code;
        });
        // A step every STEP_EVERY_MS of the clock until the attempt ends: one begun after the
        // takeover runs its side effect beside the worker that took the job.
        for (let index = 0; ; index += 1) {
          await step.run(`tick-${index}`, async () => {
            stepsStarted.push(`tick-${index}`);
          });
          const next = clock.now() + STEP_EVERY_MS;
          while (clock.now() < next && !signal.aborted) await realPause();
          if (signal.aborted) throw signal.reason;
        }
      },
    });
    const lost: string[] = [];
    const settings = { concurrency: 1, visibilityTimeoutMs: LEASE_MS };
    const client = createClient({ driver, jobs: [work] });
    await withWorker(
      context,
      [work],
      async () => {
        const { id } = await client.enqueue(work, {});
        await driveUntil(clock, 'the first handler runs', () => stepsStarted.length > 0);
        // Another process, whose renewals work, takes the job over once its lease has lapsed.
        const other = await startWorker(driver, [work], settings);
        try {
          note('settled', outcomeOf(await driveToState(driver, clock, id, 'completed')));
          await driveUntil(clock, 'the first handler ends', () => abortedAt !== undefined);
        } finally {
          await other.stop();
        }
        note('what the first handler saw', aborted);
        note('aborted before its lease ran out', (abortedAt ?? 0) < claimedAt + LEASE_MS);
        const takeover = stepsStarted.indexOf('takeover');
        note('steps the first attempt began after the takeover', stepsStarted.slice(takeover + 1));
        renewals.heal();
        note('lease-lost events', lost);
      },
      {
        ...settings,
        driver: flaky,
        on: (worker) => worker.on('lease-lost', ({ error }) => lost.push(error.code)),
      },
    );
  },
});

export const failingLeaseRenewalAborts = leaseRenewalScenario(
  'failing-lease-renewal-aborts',
  'lease renewals that keep failing abort the attempt by the worker’s own clock before its lease runs out: it starts no step once another worker may hold the job',
  'throws',
);

export const hangingLeaseRenewalAborts = leaseRenewalScenario(
  'hanging-lease-renewal-aborts',
  'a lease renewal that never answers aborts the attempt by the worker’s own clock before its lease runs out: it starts no step once another worker may hold the job',
  'hangs',
);
