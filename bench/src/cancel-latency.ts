// How long a cancel made through one driver object takes to abort the handler running the job
// under a worker on another (on pg, redis and NATS the notice crosses the server as it would
// between processes; on memory the two share one store): `cancel()` called → the handler's signal
// aborted. `heard`: as shipped (subscribe's onCancelled); `renewal`: the worker given a driver
// whose subscribe drops onCancelled, so only its next lease renewal finds the cancel (what every
// cancel cost before). Lease 10 s, so renewals come every ~3.3 s. Medians over rounds of p50/p95.
// Its own command, never part of `pnpm bench` or `pnpm test`:
//   pnpm exec tsx --conditions=@berth/source src/cancel-latency.ts --samples 50 --rounds 3

import { createClient, createWorker, type Driver, defineJob } from '@berth/core';
import { runLatencyBench } from './pair-rounds.ts';

type Mode = 'heard' | 'renewal';
const LEASE_MS = 10_000;

/** The worker's driver for `renewal`: the same calls, with a subscribe that hears no cancel. */
function deafTo(driver: Driver): Driver {
  const { subscribe } = driver;
  if (subscribe === undefined) return driver;
  return new Proxy(driver, {
    get: (target, property, receiver) =>
      property === 'subscribe'
        ? (queues: readonly string[], onWork: (queue: string) => void) => subscribe(queues, onWork)
        : Reflect.get(target, property, receiver),
  });
}

/** Cancel → abort, ms, for `samples` jobs one after another. */
async function sample(pair: [Driver, Driver], mode: Mode, samples: number): Promise<number[]> {
  const [workerDriver, canceller] = pair;
  let started: (() => void) | undefined;
  let aborted: ((at: number) => void) | undefined;
  const long = defineJob({
    name: 'long',
    run: ({ signal }) =>
      new Promise<void>((resolve) => {
        signal.addEventListener('abort', () => {
          aborted?.(performance.now());
          resolve();
        });
        started?.();
      }),
  });
  const worker = createWorker({
    driver: mode === 'heard' ? workerDriver : deafTo(workerDriver),
    jobs: [long],
    concurrency: 1,
    visibilityTimeoutMs: LEASE_MS,
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
  await worker.start();
  const client = createClient({ driver: canceller, jobs: [long] });
  const took: number[] = [];
  try {
    for (let n = 0; n < samples; n++) {
      const running = new Promise<void>((resolve) => {
        started = resolve;
      });
      const abort = new Promise<number>((resolve) => {
        aborted = resolve;
      });
      const { id } = await client.enqueue(long, null);
      await running;
      const at = performance.now();
      await canceller.cancel(id);
      took.push((await abort) - at);
    }
  } finally {
    await worker.stop({ graceMs: 1_000 });
  }
  return took;
}

void runLatencyBench({
  slowOption: 'renewal-samples',
  defaults: { samples: 50, slowSamples: 5 },
  modes: [
    ['heard', 'heard p50 ms', 'heard p95 ms'],
    ['renewal', 'renewal only p50 ms', 'renewal only p95 ms'],
  ],
  sample,
});
