// What the parent and a child run tell each other over the fork IPC channel.

import type { WorkloadName } from './workloads/names.ts';

/** Everything a child needs to run one system through one workload. */
export interface ChildTask {
  readonly system: string;
  readonly workload: WorkloadName;
  /** Unique per run: names the pg schema, the redis key prefix and the pg application_name. */
  readonly tag: string;
  readonly scale: number;
  readonly latencySamples: number;
  readonly driverLoops: number;
  readonly berthConcurrency: number;
  readonly urls: ServerUrls;
}

export interface ServerUrls {
  readonly pg: string;
  /** With the bench's db index as its path (`redis://host:port/9`). */
  readonly redis: string;
  readonly nats: string;
}

/** One measured stretch of a workload, as the child saw it. */
export interface PhaseReport {
  readonly phase: string;
  readonly jobs: number;
  readonly wallMs: number;
  /** The child's own `process.cpuUsage()` (user + system) plus any helper process it ran. */
  readonly clientCpuUs: number;
  /** Enqueue→start latencies, for the latency workload. */
  readonly latenciesMs?: readonly number[];
}

export type ChildMessage =
  | { readonly type: 'phase-start'; readonly phase: string }
  | { readonly type: 'phase-end'; readonly report: PhaseReport }
  | { readonly type: 'done' }
  | { readonly type: 'failed'; readonly message: string };

/** The parent's answer to every phase boundary: its server-CPU reading is taken. */
export interface ParentMessage {
  readonly type: 'go';
}
