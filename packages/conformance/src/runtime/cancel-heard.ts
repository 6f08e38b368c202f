import { createClient, defineJob } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { driveUntil, outcomeOf, realPause } from './drive.js';
import { withWorker } from './harness.js';

/** Real time a heard cancel may take to arrive before the scenario gives up (never the pass). */
const HEARD_WITHIN_MS = 10_000;

/** Waits in real time only, the kit clock standing still, until `done()` holds. */
async function realTimeUntil(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + HEARD_WITHIN_MS;
  while (!done()) {
    if (Date.now() >= deadline) throw new Error(`runtime scenario: gave up waiting until ${what}`);
    await realPause();
  }
}

export const cancelHeardAtOnce: GoldenScenario = {
  name: 'cancel-heard-at-once',
  asserts:
    "a cancel made through another instance aborts the running handler's signal while the clock stands still: the worker hears it (subscribe's onCancelled) instead of finding it at its next lease renewal; a driver without subscribe finds it at the renewal",
  async play(context) {
    const { driver, clock, note, sibling } = context;
    const seen = { started: false, aborted: false };
    const long = defineJob({
      name: 'long',
      async run({ signal }) {
        seen.started = true;
        await new Promise<void>((resolve) => {
          if (signal.aborted) resolve();
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
        seen.aborted = true;
      },
    });
    const client = createClient({ driver, jobs: [long] });
    const other = await sibling();
    await withWorker(
      context,
      [long],
      async () => {
        const { id } = await client.enqueue(long, null);
        await driveUntil(clock, 'the handler started', () => seen.started);
        note('cancel through another instance', outcomeOf(await other.cancel(id)));
        if (driver.subscribe === undefined) {
          await driveUntil(clock, 'the renewal found the cancel', () => seen.aborted);
        } else {
          await realTimeUntil('the handler heard the cancel', () => seen.aborted);
        }
        note('what the handler saw', seen);
        note('job after the handler returned', outcomeOf(await driver.get(id)));
      },
      { visibilityTimeoutMs: 30_000 },
    );
  },
};
