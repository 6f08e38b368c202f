import { sleep } from '../countdown.ts';
import { measure } from '../phase.ts';
import type { QueueRunner } from '../systems/types.ts';

/** No sample takes the run past this: a polling peer (pg-boss) waits up to its interval each. */
const BUDGET_MS = 30_000;
/** Quiet time before each sample, so the worker is idle again (its settle landed, loops parked). */
const GAP_MS = 10;

/**
 * Idle enqueue→start latency: with a started, idle worker, enqueue ONE job and time until its
 * handler starts; wait until it settled and the worker is quiet; repeat `samples` times.
 */
export async function latency(runner: QueueRunner, samples: number): Promise<void> {
  let waiting: { seq: number; started: () => void } | undefined;
  await runner.startWorker((seq) => {
    if (waiting?.seq === seq) waiting.started();
  });
  await sleep(300);
  const latencies: number[] = [];
  await measure('latency', samples, async () => {
    const deadline = performance.now() + BUDGET_MS;
    for (let seq = 0; seq < samples && performance.now() < deadline; seq++) {
      const started = new Promise<void>((resolve) => {
        waiting = { seq, started: resolve };
      });
      const sent = performance.now();
      await runner.enqueueOne(seq);
      await started;
      latencies.push(performance.now() - sent);
      await runner.settled(seq + 1);
      await sleep(GAP_MS);
    }
    return { latenciesMs: latencies };
  });
  await runner.stopWorker();
}
