// How soon a parked parent goes on once its child completed (`step.invoke`): the parent's worker
// on one driver object, the child's worker on another (on pg, redis and NATS the child's
// announcement crosses the server as it would between processes; on memory the two share one
// store). `from return`: the child's handler returned → the parent's `invoke` answered (the
// child's settle, its announcement, the parent's wake, claim and replay included). One parent at
// a time on idle workers. `announced`: as shipped; `poll only`: the child's announcements
// dropped, so the parent goes on at its next look (`eventPollMs`, here 1 s): what a lost
// announcement costs. Medians over rounds of p50/p95. Its own command, never part of
// `pnpm bench` or `pnpm test`:
//   pnpm exec tsx --conditions=@berth/source src/invoke-latency.ts --samples 100 --rounds 3

import { createClient, createWorker, type Driver, defineJob } from '@berth/core';
import { runLatencyBench } from './pair-rounds.ts';

type Mode = 'announced' | 'poll only';
const POLL_MS = 1_000;
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** The child worker's driver whose flow announcements never land. */
function silencingParents(driver: Driver): Driver {
  const events = new Proxy(driver.events, {
    get: (target, property, receiver) =>
      property === 'publish'
        ? (name: string, ...rest: unknown[]) =>
            name.startsWith('berth.flow:')
              ? Promise.reject(new Error('dropped by the bench'))
              : (target.publish as (...args: unknown[]) => unknown)(name, ...rest)
        : Reflect.get(target, property, receiver),
  });
  return new Proxy(driver, {
    get: (target, property, receiver) =>
      property === 'events' ? events : Reflect.get(target, property, receiver),
  });
}

/** Times from the child's return to the parent's invoke answering, ms, one parent at a time. */
async function sample(pair: [Driver, Driver], mode: Mode, samples: number): Promise<number[]> {
  const [parentSide, childSide] = pair;
  let returnedAt = 0;
  const took: number[] = [];
  const child = defineJob<{ n: number }>()({
    name: 'child',
    queue: 'children',
    run: ({ payload }) => {
      returnedAt = performance.now();
      return payload.n;
    },
  });
  const parent = defineJob<{ n: number }>()({
    name: 'parent',
    run: async ({ payload, step }) => {
      const answer = await step.invoke('child', child, { n: payload.n });
      took.push(performance.now() - returnedAt);
      return answer;
    },
  });
  const settings = { concurrency: 1, visibilityTimeoutMs: 30_000, logger: quiet };
  const parents = createWorker({
    ...settings,
    driver: parentSide,
    jobs: [parent],
    eventPollMs: POLL_MS,
  });
  const children = createWorker({
    ...settings,
    driver: mode === 'announced' ? childSide : silencingParents(childSide),
    jobs: [child],
  });
  await Promise.all([parents.start(), children.start()]);
  const client = createClient({ driver: parentSide });
  try {
    for (let n = 0; n < samples; n++) {
      const answer = await client.enqueueAndWait(parent, { n });
      if (answer !== n) throw new Error(`parent ${n} answered ${String(answer)}`);
    }
  } finally {
    await Promise.all([parents.stop({ graceMs: 1_000 }), children.stop({ graceMs: 1_000 })]);
  }
  return took;
}

void runLatencyBench({
  slowOption: 'poll-samples',
  defaults: { samples: 100, slowSamples: 5 },
  modes: [
    ['announced', 'announced: p50 ms', 'p95 ms'],
    ['poll only', 'poll only: p50 ms', 'p95 ms'],
  ],
  sample,
});
