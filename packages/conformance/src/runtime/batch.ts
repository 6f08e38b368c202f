import { createClient, defineBatchJob } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { driveToState, outcomeOf } from './drive.js';
import { withWorker } from './harness.js';

export const batchRunsTogether: GoldenScenario = {
  name: 'batch-runs-together',
  asserts:
    'a batch job (size 3) runs its three waiting jobs in one handler call; each settles on its own: two complete with their entries, the one answered an Error retries alone and completes',
  async play(context) {
    const { driver, clock, note } = context;
    const calls: string[][] = [];
    const index = defineBatchJob<{ doc: string }>({
      name: 'index',
      batch: { size: 3, waitMs: 1_000 },
      retry: { maxAttempts: 2, backoff: { initialMs: 100, jitter: 0 } },
      run: (items) => {
        calls.push(items.map((item) => `${item.payload.doc}#${item.attempt}`));
        return items.map((item) =>
          item.payload.doc === 'c' && item.attempt === 1
            ? new Error('c was refused')
            : `indexed ${item.payload.doc}`,
        );
      },
    });
    const client = createClient({ driver, jobs: [index] });
    const jobs = await client.enqueueMany(
      ['a', 'b', 'c'].map((doc) => ({ job: index, payload: { doc } })),
    );
    await withWorker(
      context,
      [index],
      async () => {
        for (const [position, { id }] of jobs.entries()) {
          note(
            `job ${position + 1} settled`,
            outcomeOf(await driveToState(driver, clock, id, 'completed')),
          );
        }
      },
      { concurrency: 3 },
    );
    note('handler calls', calls);
  },
};
