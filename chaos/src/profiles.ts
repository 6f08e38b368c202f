import type { PartitionWindow } from './nemesis/partition.ts';

/** How big and how rough one run is. Every duration is in ms from the start of the run. */
export interface Profile {
  readonly name: 'ci' | 'long';
  /** `chaos.steps` jobs enqueued, spread over `enqueueMs`. */
  readonly jobs: number;
  readonly enqueueMs: number;
  readonly workers: number;
  readonly concurrency: number;
  /** The workers' `visibilityTimeoutMs` (and so each concurrency slot's ttl). */
  readonly leaseMs: number;
  /** SIGKILL of a random worker every `killEveryMs` (a random pick in the range) until `nemesisMs`. */
  readonly killEveryMs: readonly [number, number];
  readonly nemesisMs: number;
  /** When a worker is SIGSTOPped past its lease (for 2.5 leases), each one a zombie. */
  readonly zombieAtMs: readonly number[];
  /** When the server crashes, and how long it stays down each time. */
  readonly crashAtMs: readonly number[];
  readonly downMs: number;
  /** `chaos.keyed` jobs (limit 1 per key) over `keys` keys, run by two worker processes. */
  readonly keyed: { readonly jobs: number; readonly keys: number; readonly units: number };
  /**
   * When a slot holder is stalled past the slot ttl. Never while the server is down: the rival
   * could not take the slot, and the stall would prove nothing.
   */
  readonly slotStallAtMs: readonly number[];
  /** Three schedulers run for `cronMs`; the leader is SIGKILLed at each `leaderKillAtMs`. */
  readonly cronMs: number;
  readonly leaderKillAtMs: readonly number[];
  /**
   * When the island's worker (a worker host of its own, see net/netns.ts) is cut off from the
   * server, and for how long: the short cut within a lease, the longer ones past it (a cut past
   * two leases lasts until its jobs were taken over, see nemesis/take-over.ts). Never while the
   * server is down. Backends whose server cannot serve an island run none (nats-cluster).
   */
  readonly partitions: readonly PartitionWindow[];
  /**
   * Backends with a partitioned primary (redis-sentinel-partition), instead of the crash: when the primary's
   * side is cut off, and for how long.
   */
  readonly primaryPartition: { readonly atMs: readonly number[]; readonly cutMs: number };
  /** How long after the nemeses end every acknowledged job must have completed. */
  readonly settleMs: number;
}

export const PROFILES: Record<Profile['name'], Profile> = {
  ci: {
    name: 'ci',
    jobs: 1_000,
    enqueueMs: 8_000,
    workers: 3,
    concurrency: 8,
    leaseMs: 1_500,
    killEveryMs: [2_000, 4_000],
    nemesisMs: 10_000,
    zombieAtMs: [2_500],
    crashAtMs: [7_000],
    downMs: 1_000,
    keyed: { jobs: 24, keys: 3, units: 4 },
    slotStallAtMs: [1_000],
    cronMs: 9_000,
    leaderKillAtMs: [4_000],
    partitions: [
      { atMs: 1_500, ms: 1_000 },
      { atMs: 3_000, ms: 4_000 },
    ],
    primaryPartition: { atMs: [7_000], cutMs: 5_000 },
    settleMs: 30_000,
  },
  long: {
    name: 'long',
    jobs: 10_000,
    enqueueMs: 90_000,
    workers: 4,
    concurrency: 8,
    leaseMs: 2_000,
    killEveryMs: [2_000, 4_000],
    nemesisMs: 120_000,
    zombieAtMs: [10_000, 50_000, 95_000],
    crashAtMs: [30_000, 75_000],
    downMs: 2_000,
    keyed: { jobs: 120, keys: 4, units: 4 },
    slotStallAtMs: [15_000, 55_000, 95_000],
    cronMs: 110_000,
    leaderKillAtMs: [20_000, 55_000, 90_000],
    partitions: [
      { atMs: 3_000, ms: 1_000 },
      { atMs: 12_000, ms: 5_000 },
      { atMs: 35_000, ms: 30_000 },
    ],
    primaryPartition: { atMs: [30_000, 70_000], cutMs: 15_000 },
    settleMs: 90_000,
  },
};
