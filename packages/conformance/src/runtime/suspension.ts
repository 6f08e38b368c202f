import { createClient, defineJob } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { driveToState, outcomeOf } from './drive.js';
import { withWorker } from './harness.js';

const realPause = () => new Promise<void>((resolve) => setTimeout(resolve, 20));

export const swallowedSleepStillSuspends: GoldenScenario = {
  name: 'swallowed-sleep-still-suspends',
  asserts:
    'a handler that catches its step.sleep suspension and returns still parks the run; later steps do not run before the wake',
  async play(context) {
    const { driver, clock, note } = context;
    const log: string[] = [];
    const nap = defineJob({
      name: 'nap',
      async run({ step }) {
        try {
          await step.sleep('nap', 2_000);
        } catch {
          log.push('swallowed');
        }
        // A later step in the same attempt meets the same suspension: it must not run early.
        await step
          .run('after', () => {
            log.push('after ran');
          })
          .catch(() => log.push('after refused'));
        return 'returned normally';
      },
    });
    const client = createClient({ driver, jobs: [nap] });
    await withWorker(context, [nap], async () => {
      const { id, runId } = await client.enqueue(nap, null);
      note('nap parked', outcomeOf(await driveToState(driver, clock, id, 'suspended')));
      await realPause();
      note('nap before its wake', outcomeOf(await driver.get(id)));
      note('the sleep step', (await driver.steps.get(runId, 'nap'))?.status);
      const wakeAt = (await driver.steps.get(runId, 'nap'))?.wakeAt ?? Number.NaN;
      await clock.set(wakeAt);
      note('nap settled', outcomeOf(await driveToState(driver, clock, id, 'completed')));
      note('what ran, in order', log);
    });
  },
};
