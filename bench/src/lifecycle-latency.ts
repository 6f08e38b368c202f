// How soon a lifecycle tail in one process hears that a job completed in another: the worker on
// one driver object, `client.lifecycle.tail` on another (on pg, redis and NATS the event and the
// settle notice cross the server as between processes; on memory the two share one store).
// `from return`: the handler returned → the tail yielded the job's `completed` event (the settle,
// its 5 ms batching included, the notice and the tail's read). One job at a time on an idle
// worker. `woken`: as shipped (the tail wakes at the driver's settle notice); `poll only`: the
// tail's driver has no `watchSettles`, so it reads at its next poll (`pollMs`, 250 ms). Medians
// over rounds of p50/p95. Its own command, never part of `pnpm bench` or `pnpm test`:
//   pnpm exec tsx --conditions=@berth/source src/lifecycle-latency.ts --samples 100 --rounds 3

import { createClient, createWorker, type Driver, defineJob } from '@berth/core';
import { runLatencyBench } from './pair-rounds.ts';

type Mode = 'woken' | 'poll only';
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** The tail's driver for `poll only`: the same calls, without settle notices. */
function deaf(driver: Driver): Driver {
  return new Proxy(driver, {
    get: (target, property, receiver) =>
      property === 'watchSettles' ? undefined : Reflect.get(target, property, receiver),
  });
}

/** Handler return → the tail's `completed` event, ms, one job at a time. */
async function sample(pair: [Driver, Driver], mode: Mode, samples: number): Promise<number[]> {
  const [workerSide, tailSide] = pair;
  let returnedAt = 0;
  const quick = defineJob({
    name: 'quick',
    queue: 'lifecycle-bench',
    run: () => {
      returnedAt = performance.now();
      return 1;
    },
  });
  const worker = createWorker({
    driver: workerSide,
    jobs: [quick],
    concurrency: 1,
    visibilityTimeoutMs: 30_000,
    logger: quiet,
  });
  await worker.start();
  const client = createClient({ driver: mode === 'woken' ? tailSide : deaf(tailSide) });
  const stop = new AbortController();
  const events = client.lifecycle.tail({ queue: 'lifecycle-bench', signal: stop.signal });
  const took: number[] = [];
  try {
    // The tail starts from the end on its first step: take it before the first job runs.
    const first = events.next();
    for (let n = 0; n < samples; n++) {
      const { id } = await client.driver.enqueue({ name: 'quick', queue: 'lifecycle-bench' });
      for (let next = n === 0 ? await first : await events.next(); ; next = await events.next()) {
        if (next.done === true) throw new Error('the tail ended early');
        if (next.value.jobId === id && next.value.type === 'completed') break;
      }
      took.push(performance.now() - returnedAt);
    }
  } finally {
    stop.abort();
    await events.return(undefined);
    await worker.stop({ graceMs: 1_000 });
  }
  return took;
}

void runLatencyBench({
  slowOption: 'poll-samples',
  defaults: { samples: 100, slowSamples: 10 },
  modes: [
    ['woken', 'woken p50 ms', 'woken p95 ms'],
    ['poll only', 'poll only p50 ms', 'poll only p95 ms'],
  ],
  sample,
});
