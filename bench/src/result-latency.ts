// How soon a result wait in another process answers once its job completed: `enqueueAndWait`
// through one driver object, the worker on another (on pg, redis and NATS the settle crosses the
// server as it would between processes; on memory the two share one store). `from ack`: the
// worker's ack landed (its answer came back) → the wait answered; `from return`: the handler
// returned → the wait answered (the worker's settle batching, 5 ms by default, included).
// `notices`: as shipped (the waiting driver's `watchSettles`); `polling`: the waiting driver
// given no `watchSettles`, so the wait finds the settle on its poll (25 ms doubling to 1 s:
// what every cross-process wait cost before). One job at a time, on an idle worker. Medians over
// rounds of p50/p95. Its own command, never part of `pnpm bench` or `pnpm test`:
//   pnpm exec tsx --conditions=@berth/source src/result-latency.ts --samples 200 --rounds 3

import { createClient, createWorker, type Driver, defineJob } from '@berth/core';
import { markdownTable, millis } from './format.ts';
import { pairRounds, readPairArgs, roundsCell } from './pair-rounds.ts';
import { percentile } from './stats.ts';

const MODES = ['notices', 'polling'] as const;
type Mode = (typeof MODES)[number];

/** The waiting side's driver for `polling`: the same calls, without settle notices. */
function withoutNotices(driver: Driver): Driver {
  return new Proxy(driver, {
    get: (target, property, receiver) =>
      property === 'watchSettles' ? undefined : Reflect.get(target, property, receiver),
  });
}

/** The worker's driver, noting when its last ack (single or batched) landed. */
function notingAcks(driver: Driver, landed: (at: number) => void): Driver {
  return new Proxy(driver, {
    get: (target, property, receiver) => {
      const value: unknown = Reflect.get(target, property, receiver);
      if ((property !== 'ack' && property !== 'ackMany') || typeof value !== 'function') {
        return value;
      }
      return async (...args: unknown[]) => {
        const answer: unknown = await value.apply(target, args);
        landed(performance.now());
        return answer;
      };
    },
  });
}

interface Took {
  /** The handler's return → the wait answered. */
  readonly fromReturn: number;
  /** The worker's ack landed (its answer came back) → the wait answered: the notice's own part. */
  readonly fromAck: number;
}

/** Times, ms, for `samples` jobs one after another. */
async function sample(pair: [Driver, Driver], mode: Mode, samples: number): Promise<Took[]> {
  const [workerSide, waiter] = pair;
  let returnedAt = 0;
  let ackedAt = 0;
  const workerDriver = notingAcks(workerSide, (at) => {
    ackedAt = at;
  });
  const quick = defineJob<{ n: number }>()({
    name: 'quick',
    run: ({ payload }) => {
      returnedAt = performance.now();
      return payload.n;
    },
  });
  const worker = createWorker({
    driver: workerDriver,
    jobs: [quick],
    concurrency: 1,
    visibilityTimeoutMs: 30_000,
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
  await worker.start();
  const client = createClient({ driver: mode === 'notices' ? waiter : withoutNotices(waiter) });
  const took: Took[] = [];
  try {
    for (let n = 0; n < samples; n++) {
      const answer = await client.enqueueAndWait(quick, { n });
      const at = performance.now();
      if (answer !== n) throw new Error(`job ${n} answered ${String(answer)}`);
      // The ack's answer may come back to the worker after the notice reached the waiter.
      await new Promise((resolve) => setTimeout(resolve, 1));
      took.push({ fromReturn: at - returnedAt, fromAck: at - ackedAt });
    }
  } finally {
    await worker.stop({ graceMs: 1_000 });
  }
  return took;
}

interface Figure {
  readonly ackP50: number;
  readonly ackP95: number;
  readonly returnP50: number;
}

function figureOf(took: readonly Took[]): Figure {
  const fromAck = took.map((t) => t.fromAck).sort((a, b) => a - b);
  const fromReturn = took.map((t) => t.fromReturn).sort((a, b) => a - b);
  return {
    ackP50: percentile(fromAck, 0.5),
    ackP95: percentile(fromAck, 0.95),
    returnP50: percentile(fromReturn, 0.5),
  };
}

async function main(): Promise<void> {
  const args = readPairArgs('polling-samples', { samples: 200, slowSamples: 20 });
  const names = args.systems;
  const figures = await pairRounds({
    systems: names,
    modes: MODES,
    rounds: args.rounds,
    measure: async (pair, mode) =>
      figureOf(await sample(pair, mode, mode === 'notices' ? args.samples : args.slowSamples)),
    describe: (figure) =>
      `from ack p50 ${millis(figure.ackP50)} ms, p95 ${millis(figure.ackP95)} ms; from return p50 ${millis(figure.returnP50)} ms`,
  });
  console.log(
    `\n${markdownTable(
      [
        'system',
        'notices: from ack p50 ms',
        'p95 ms',
        'from return p50 ms',
        'polling: from ack p50 ms',
        'p95 ms',
      ],
      names.map((name) => [
        name,
        roundsCell(figures, `${name} notices`, (f) => f.ackP50),
        roundsCell(figures, `${name} notices`, (f) => f.ackP95),
        roundsCell(figures, `${name} notices`, (f) => f.returnP50),
        roundsCell(figures, `${name} polling`, (f) => f.ackP50),
        roundsCell(figures, `${name} polling`, (f) => f.ackP95),
      ]),
    )}\n`,
  );
}

void main();
