import type { Fence, JobError, Json } from './records.js';

export type StepStatus = 'completed' | 'failed' | 'sleeping' | 'waiting';

/** One durable step of a run, keyed by `(runId, name)`. */
export interface StepRecord {
  readonly runId: string;
  readonly name: string;
  readonly status: StepStatus;
  /** A completed step's memoized output. */
  readonly output?: Json;
  readonly error?: JobError;
  /** Times the step's function ran. */
  readonly attempts: number;
  /** A sleep's wake instant, or an event wait's timeout. */
  readonly wakeAt?: number;
  /** The event an event wait listens for. */
  readonly eventName?: string;
  /** The event that resumed a wait, and its payload, once it arrived. */
  readonly eventId?: string;
  readonly startedAt: number;
  readonly updatedAt: number;
}

/**
 * Step storage. Write order is the order of each name's FIRST put; a later put of the same name
 * updates the record in place and keeps its place. Kit group: `steps`.
 */
export interface StepStore {
  /** The step, or `undefined`. */
  get(runId: string, name: string): Promise<StepRecord | undefined>;
  /**
   * Writes (inserts or replaces) the step, in ONE change that also checks the fence: when the
   * fence no longer holds (re-claimed, cancelled, settled) nothing is written and LEASE_LOST is
   * thrown. `record.runId` must be the fenced job's run.
   */
  put(record: StepRecord, fence: Fence): Promise<void>;
  /** Every step of the run, in write order. */
  list(runId: string): Promise<readonly StepRecord[]>;
}
