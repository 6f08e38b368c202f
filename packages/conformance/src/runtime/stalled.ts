import { createClient, type Driver, defineJob } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { driveToState, driveUntil, outcomeOf } from './drive.js';
import { withWorker } from './harness.js';

/** The case's driver, counting the attempt-history reads begun and answered. */
function countingHistoryReads(driver: Driver) {
  const reads = { begun: 0, answered: 0 };
  const attempts: Driver['attempts'] = {
    list: async (...args) => {
      reads.begun += 1;
      try {
        return await driver.attempts.list(...args);
      } finally {
        reads.answered += 1;
      }
    },
  };
  const wrapped = new Proxy(driver, {
    get: (target, property, receiver) =>
      property === 'attempts' ? attempts : Reflect.get(target, property, receiver),
  });
  return { driver: wrapped, reads };
}

export const stalledReclaim: GoldenScenario = {
  name: 'stalled-reclaim',
  asserts:
    'a job whose lease lapsed on a crashed worker is taken again and emits `stalled` once, naming the lapsed attempt; a retried job and a first claim emit none, and only the jobs claimed again cost a history read',
  async play(context) {
    const { driver, clock, note } = context;
    const sync = defineJob({
      name: 'sync',
      retry: { maxAttempts: 3, backoff: { initialMs: 100, jitter: 0 } },
      async run({ payload, attempt }) {
        if (payload === 'flaky' && attempt === 1) throw new Error('first attempt fails');
        return `${String(payload)} synced`;
      },
    });
    const client = createClient({ driver, jobs: [sync] });
    const orphan = await client.enqueue(sync, 'orphan');
    // A worker that claims and then dies: its lease runs out with nothing settled.
    await driver.claim({ queues: ['default'], workerId: 'crashed', visibilityTimeoutMs: 1_000 });
    const flaky = await client.enqueue(sync, 'flaky');
    const fresh = await client.enqueue(sync, 'fresh');
    const counted = countingHistoryReads(driver);
    const stalled: unknown[] = [];
    await withWorker(
      context,
      [sync],
      async () => {
        for (const [label, { id }] of [
          ['orphan', orphan],
          ['flaky', flaky],
          ['fresh', fresh],
        ] as const) {
          note(`${label} settled`, outcomeOf(await driveToState(driver, clock, id, 'completed')));
        }
        await driveUntil(clock, 'every history read answered', () => {
          const { begun, answered } = counted.reads;
          return begun === answered;
        });
      },
      {
        driver: counted.driver,
        on: (worker) =>
          worker.on('stalled', ({ name, job, lapsed }) => {
            stalled.push({
              name,
              payload: job.payload,
              attempt: job.attempts,
              lapsed: {
                workerId: lapsed.workerId,
                attempt: lapsed.attempt,
                outcome: lapsed.outcome,
                claimBefore: lapsed.claim < job.claim,
              },
            });
          }),
      },
    );
    note('stalled events', stalled);
    note('attempt-history reads', counted.reads.begun);
  },
};
