/** Every workload the bench knows, in the order a round runs them. */
export const WORKLOADS = [
  'burn20k',
  'burn20k-analyzed',
  'burn100k',
  'bulk',
  'latency',
  'mixed',
] as const;

export type WorkloadName = (typeof WORKLOADS)[number];

/** What `pnpm bench` runs when `--workloads` is not given (burn100k is opt-in: it is slow). */
export const DEFAULT_WORKLOADS: readonly WorkloadName[] = [
  'burn20k',
  'burn20k-analyzed',
  'bulk',
  'latency',
  'mixed',
];

export const isWorkloadName = (value: string): value is WorkloadName =>
  (WORKLOADS as readonly string[]).includes(value);

/** Job counts at scale 1; `--scale` multiplies them (for quick smoke runs). */
export const WORKLOAD_JOBS = {
  burn20k: 20_000,
  'burn20k-analyzed': 20_000,
  burn100k: 100_000,
  bulk: 50_000,
  /** Single enqueues, one at a time, in the bulk workload's second phase. */
  single: 1_000,
  mixed: 20_000,
} as const;

/** Every bulk enqueue goes in batches of this many (Berth's MAX_ENQUEUE_BATCH). */
export const ENQUEUE_BATCH = 1_000;
/** The mixed run's enqueuer sends batches of this many while the worker works. */
export const MIXED_BATCH = 100;
