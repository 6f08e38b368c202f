import type { Spread } from './stats.ts';
import { cellKey, compare, floorShare, summarize, type Table } from './summary.ts';
import { berthNats } from './systems/berth-nats.ts';

/** One of issue 27's targets, checked against a run. */
export interface TargetResult {
  readonly target: string;
  /** The measured median (a ratio, or jobs/s for the memory target) with its spread. */
  readonly measured: Spread | undefined;
  readonly unit: '×' | 'jobs/s';
  /** Undefined when the run did not measure it. */
  readonly met: boolean | undefined;
}

interface Target {
  readonly target: string;
  readonly unit: '×' | 'jobs/s';
  readonly measure: (table: Table) => Spread | undefined;
  readonly ok: (median: number) => boolean;
}

const rateRatio = (workload: string, phase: string, system: string, versus: string) => (t: Table) =>
  compare(t, workload, phase, system, versus).rate;

const atLeast = (bound: number) => (median: number) => median >= bound;
const atMost = (bound: number) => (median: number) => median <= bound;

const PG_BURNS = ['burn20k', 'burn100k', 'burn20k-analyzed'] as const;
/** Its documented preset, and the local queue of 1,000 with 10 ms complete batching. */
const GRAPHILE_CONFIGURATIONS = ['graphile-worker', 'graphile-worker-batched'] as const;

/** Issue 27's targets: ratios from one run, interleaved, on the same box. */
const TARGETS: readonly Target[] = [
  ...PG_BURNS.flatMap((workload): Target[] => [
    ...GRAPHILE_CONFIGURATIONS.map(
      (graphile): Target => ({
        target: `berth-pg process ≥ 1.5× ${graphile} (${workload})`,
        unit: '×',
        measure: rateRatio(workload, 'process', 'berth-pg', graphile),
        ok: atLeast(1.5),
      }),
    ),
    {
      target: `berth-pg process ≥ 2.5× pg-boss (${workload})`,
      unit: '×',
      measure: rateRatio(workload, 'process', 'berth-pg', 'pg-boss'),
      ok: atLeast(2.5),
    },
  ]),
  {
    target: "berth-pg bulk enqueue ≥ 1.2× graphile-worker's addJobs (bulk)",
    unit: '×',
    measure: rateRatio('bulk', 'enqueue', 'berth-pg', 'graphile-worker'),
    ok: atLeast(1.2),
  },
  {
    target: "berth-pg CPU µs/job (client + server) ≤ 0.8× graphile-worker's (burn20k process)",
    unit: '×',
    measure: (t) => compare(t, 'burn20k', 'process', 'berth-pg', 'graphile-worker').cpu,
    ok: atMost(0.8),
  },
  ...(['burn20k', 'burn100k'] as const).map(
    (workload): Target => ({
      target: `berth-redis process ≥ 2× BullMQ (${workload})`,
      unit: '×',
      measure: rateRatio(workload, 'process', 'berth-redis', 'bullmq'),
      ok: atLeast(2),
    }),
  ),
  {
    target: "berth-redis single enqueue ≥ 1× BullMQ's add (bulk)",
    unit: '×',
    measure: rateRatio('bulk', 'single', 'berth-redis', 'bullmq'),
    ok: atLeast(1),
  },
  {
    target: 'berth-redis idle enqueue→start p50 ≤ BullMQ (latency)',
    unit: '×',
    measure: (t) => compare(t, 'latency', 'latency', 'berth-redis', 'bullmq').p50,
    ok: atMost(1),
  },
  {
    target: 'berth-memory ≥ 300k jobs/s through createWorker (burn20k process)',
    unit: 'jobs/s',
    measure: (t) => summarize(t.get(cellKey('burn20k', 'berth-memory', 'process'))).rate,
    ok: atLeast(300_000),
  },
  {
    target: "berth-nats process ≥ 0.5× its floor's pipelined conditional writes (burn20k)",
    unit: '×',
    measure: (t) => floorShare(t, 'burn20k', 'process', berthNats),
    ok: atLeast(0.5),
  },
];

export function checkTargets(table: Table): TargetResult[] {
  return TARGETS.map(({ target, unit, measure, ok }) => {
    const measured = measure(table);
    return {
      target,
      unit,
      measured,
      met: measured === undefined ? undefined : ok(measured.median),
    };
  });
}
