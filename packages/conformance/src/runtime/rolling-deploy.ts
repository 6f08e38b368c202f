import { createClient, defineJob } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { driveToState, driveUntil, outcomeOf } from './drive.js';
import { withWorker } from './harness.js';

export const unknownNameStaysReady: GoldenScenario = {
  name: 'unknown-name-stays-ready',
  asserts:
    'a worker claims only the job names it runs: a job type it does not know stays ready, unspent, and shows in stats',
  async play(context) {
    const { driver, clock, note } = context;
    const known = defineJob({ name: 'known', async run() {} });
    // A job type a newer deploy enqueues; this worker has no handler for it.
    const newer = defineJob({ name: 'newer', retry: { maxAttempts: 1 }, async run() {} });
    const client = createClient({ driver, jobs: [known, newer] });
    const stranger = await client.enqueue(newer, null);
    await withWorker(context, [known], async () => {
      const mine = await client.enqueue(known, null);
      note('known settled', outcomeOf(await driveToState(driver, clock, mine.id, 'completed')));
      // Many polls pass: none may take the job this worker cannot run.
      const until = clock.now() + 2_000;
      await driveUntil(clock, 'two seconds of polls passed', () => clock.now() >= until);
    });
    const left = await driver.get(stranger.id);
    note('newer job after the old worker ran', {
      ...outcomeOf(left),
      claim: left?.claim,
    });
    const [stats] = await driver.stats();
    note('stats', { ready: stats?.counts.ready, completed: stats?.counts.completed });
    await withWorker(context, [newer], async () => {
      note(
        'newer settled by a worker that knows it',
        outcomeOf(await driveToState(driver, clock, stranger.id, 'completed')),
      );
    });
  },
};
