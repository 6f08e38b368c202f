import { createClient, defineJob } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { driveUntil, outcomeOf } from './drive.js';
import { startWorker } from './harness.js';

export const prefetchHandsBackOnStop: GoldenScenario = {
  name: 'prefetch-hands-back-on-stop',
  asserts:
    'a prefetching worker holds claimed jobs it has not started, and its stop hands every one back due at once, no attempt counted',
  async play(context) {
    const { driver, clock, note } = context;
    const started: number[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const queued = defineJob<number>({
      name: 'queued',
      async run({ payload }) {
        started.push(payload);
        await held;
      },
    });
    const client = createClient({ driver, jobs: [queued] });
    const ids: string[] = [];
    for (let seq = 0; seq < 4; seq += 1) ids.push((await client.enqueue(queued, seq)).id);
    const states = async () =>
      Promise.all(ids.map(async (id) => (await driver.get(id))?.state ?? 'missing'));
    const worker = await startWorker(driver, [queued], { concurrency: 1, prefetch: 2 });
    try {
      await driveUntil(clock, 'the first job runs and two are buffered', async () => {
        const now = await states();
        return started.length === 1 && now.filter((state) => state === 'running').length === 3;
      });
      note('states while one runs and two wait', await states());
    } finally {
      // A grace of 0: the running job is drained, the buffered ones go back unstarted.
      await worker.stop();
      release();
    }
    note('handlers started', started);
    // A stop is bounded by its grace (0 here) plus STOP_SLACK_MS of real time: on a loaded
    // backend the drained job's hand-back may land just after stop() resolved.
    await driveUntil(clock, 'every job is handed back', async () =>
      (await states()).every((state) => state !== 'running'),
    );
    note('after stop', await Promise.all(ids.map(async (id) => outcomeOf(await driver.get(id)))));
    const next = await driver.claim({
      queues: ['default'],
      workerId: 'kit-next',
      visibilityTimeoutMs: 30_000,
      limit: 4,
    });
    // Sorted: a handed-back row is due at the stop's instant, after the never-claimed one.
    note(
      'claimed again',
      next
        .map((job) => ({ payload: job.payload, attempts: job.attempts, resumed: job.resumed }))
        .sort((a, b) => Number(a.payload) - Number(b.payload)),
    );
  },
};
