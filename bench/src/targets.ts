import type { Spread } from './stats.ts';
import { cellKey, compare, summarize, type Table } from './summary.ts';

/** One of issue 10's targets, checked against a run. */
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

/** Issue 10's targets: ratios from one run, interleaved, on the same box. */
const TARGETS: readonly Target[] = [
  ...PG_BURNS.flatMap((workload): Target[] => [
    {
      target: `berth-pg process ≥ 1.3× graphile-worker (${workload})`,
      unit: '×',
      measure: rateRatio(workload, 'process', 'berth-pg', 'graphile-worker'),
      ok: atLeast(1.3),
    },
    {
      target: `berth-pg process ≥ 2× pg-boss (${workload})`,
      unit: '×',
      measure: rateRatio(workload, 'process', 'berth-pg', 'pg-boss'),
      ok: atLeast(2),
    },
  ]),
  {
    target: "berth-pg bulk enqueue ≥ 1× graphile-worker's addJobs (bulk)",
    unit: '×',
    measure: rateRatio('bulk', 'enqueue', 'berth-pg', 'graphile-worker'),
    ok: atLeast(1),
  },
  {
    target: "berth-pg CPU µs/job (client + server) below graphile-worker's (burn20k process)",
    unit: '×',
    measure: (t) => compare(t, 'burn20k', 'process', 'berth-pg', 'graphile-worker').cpu,
    ok: (median) => median < 1,
  },
  {
    target: 'berth-redis process ≥ 1.2× BullMQ (burn20k)',
    unit: '×',
    measure: rateRatio('burn20k', 'process', 'berth-redis', 'bullmq'),
    ok: atLeast(1.2),
  },
  {
    target: 'berth-redis process ≥ 1.2× BullMQ (burn100k)',
    unit: '×',
    measure: rateRatio('burn100k', 'process', 'berth-redis', 'bullmq'),
    ok: atLeast(1.2),
  },
  {
    target: "berth-redis enqueue ≥ 1.2× BullMQ's addBulk (bulk)",
    unit: '×',
    measure: rateRatio('bulk', 'enqueue', 'berth-redis', 'bullmq'),
    ok: atLeast(1.2),
  },
  {
    target: 'berth-pg idle enqueue→start p50 ≤ graphile-worker (latency)',
    unit: '×',
    measure: (t) => compare(t, 'latency', 'latency', 'berth-pg', 'graphile-worker').p50,
    ok: atMost(1),
  },
  {
    target: 'berth-redis idle enqueue→start p50 ≤ BullMQ (latency)',
    unit: '×',
    measure: (t) => compare(t, 'latency', 'latency', 'berth-redis', 'bullmq').p50,
    ok: atMost(1),
  },
  {
    target: 'berth-memory ≥ 150k jobs/s through createWorker (burn20k process)',
    unit: 'jobs/s',
    measure: (t) => summarize(t.get(cellKey('burn20k', 'berth-memory', 'process'))).rate,
    ok: atLeast(150_000),
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
