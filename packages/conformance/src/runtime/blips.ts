import { createClient, defineJob } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { driveToState, outcomeOf } from './drive.js';
import { withWorker } from './harness.js';
import { failFirst, wrapDriver } from './wrap-driver.js';

export const settleSurvivesBlip: GoldenScenario = {
  name: 'settle-survives-blip',
  asserts:
    'a settle that fails once (ackMany, suspend) is sent again while the lease lasts: the final attempt completes, nothing runs twice',
  async play(context) {
    const { driver, clock, note } = context;
    const blipping = wrapDriver(driver, { ackMany: failFirst(1), suspend: failFirst(1) });
    const runs: string[] = [];
    const given: string[] = [];
    const report = defineJob({
      name: 'report',
      // The only attempt: a lost ack would bury it LEASE_LAPSED.
      retry: { maxAttempts: 1 },
      async run({ step }) {
        await step.run('build', () => {
          runs.push('build');
        });
        await step.sleep('cool-down', 100);
        runs.push('finish');
        return 'sent';
      },
    });
    const client = createClient({ driver, jobs: [report] });
    await withWorker(
      context,
      [report],
      async () => {
        const { id } = await client.enqueue(report, null);
        note('report settled', outcomeOf(await driveToState(driver, clock, id, 'completed')));
        note('what ran', runs);
        note('calls the blip failed once', {
          suspend: blipping.calls.suspend,
          ackMany: blipping.calls.ackMany,
        });
        note('settles given up', given);
      },
      {
        driver: blipping.driver,
        on: (worker) => worker.on('settle-failed', ({ settle }) => given.push(settle)),
      },
    );
  },
};
