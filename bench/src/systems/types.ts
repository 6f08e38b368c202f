import type { ChildTask } from '../protocol.ts';
import type { WorkloadName } from '../workloads/names.ts';

export type ServerKind = 'memory' | 'pg' | 'redis' | 'nats';

/** Berth itself, a peer it is measured against, or a server floor (what the server alone does). */
export type SystemRole = 'berth' | 'peer' | 'floor';

/** A queue the workloads drive through its own public API. Every job is a no-op carrying `seq`. */
export interface QueueRunner {
  readonly kind: 'queue';
  /** Enqueues jobs `first .. first + count - 1` in ONE bulk call (count ≤ 1,000). */
  enqueueBatch(first: number, count: number): Promise<void>;
  /** Enqueues one job with the system's single-job call. */
  enqueueOne(seq: number): Promise<void>;
  /** Starts one worker at the system's best settings; `onStart(seq)` runs inside each handler. */
  startWorker(onStart: (seq: number) => void): Promise<void>;
  /** Resolves once `total` jobs are settled for good (the ack landed, not just the handler ran). */
  settled(total: number): Promise<void>;
  stopWorker(): Promise<void>;
  /** ANALYZE every table the system keeps (pg systems). */
  analyze?(): Promise<void>;
  close(): Promise<void>;
}

/** What a floor phase reports beyond the child's own clock and CPU. */
export interface FloorPhase {
  /** CPU of helper processes the floor ran (pgbench), µs. */
  readonly helperCpuUs: number;
  /** The floor's own timing when it excludes set-up (pgbench's "without initial connection time"). */
  readonly wallMs?: number;
}

/** A server floor: enqueue and burn down `total` jobs the leanest way the server allows. */
export interface FloorRunner {
  readonly kind: 'floor';
  enqueueAll(total: number): Promise<FloorPhase>;
  processAll(total: number): Promise<FloorPhase>;
  analyze?(): Promise<void>;
  close(): Promise<void>;
}

export type Runner = QueueRunner | FloorRunner;

export interface SystemDefinition {
  readonly name: string;
  readonly role: SystemRole;
  readonly server: ServerKind;
  /** The floor whose figures this system's throughput is printed as a share of. */
  readonly floor?: string;
  readonly workloads: readonly WorkloadName[];
  /** The settings it runs at, in one line (printed in the report). */
  readonly settings: string;
  /** False when the package it needs is not in the workspace (the nats slot). */
  available(): boolean;
  /** Runs in the child: connects, migrates, answers a runner. Heavy imports happen here. */
  open(task: ChildTask): Promise<Runner>;
}

/** The jobs every system enqueues: the smallest payload that still identifies the job. */
export interface NoopPayload {
  readonly seq: number;
}

/** `seq` of a payload that went through a queue as JSON. */
export function seqOf(payload: unknown): number {
  if (typeof payload === 'object' && payload !== null && 'seq' in payload) {
    const { seq } = payload;
    if (typeof seq === 'number') return seq;
  }
  throw new Error(`a job without a numeric seq: ${JSON.stringify(payload)}`);
}
