import type {
  ClaimedJob,
  Driver,
  EnqueueResult,
  Fence,
  JobRecord,
  JobState,
  ListPage,
  ManualClock,
} from '@berth/core';
import { TERMINAL_STATES } from '@berth/core';
import { Labeler } from '../normalize.js';
import { type Op, type Target, UNKNOWN_ID } from './ops.js';

/** One side of a differential run: its driver, clock, and what its own answers taught it. */
export interface World {
  readonly driver: Driver;
  readonly clock: ManualClock;
  readonly t0: number;
  readonly labels: Labeler;
  /** Job ids in order of first answer. */
  readonly jobs: string[];
  readonly runIds: Map<string, string>;
  /** Every fence a claim handed out, stale ones included. */
  readonly fences: Fence[];
  /** Each job's state as the latest answer that showed its record had it. */
  readonly seen: Map<string, JobState>;
  /** The last page this side listed: its own cursors are followed. */
  page: ListPage | undefined;
  /** The last call's refusal as thrown: a failure shows what normalizing drops (its cause). */
  refusal: unknown;
}

export function openWorld(driver: Driver, clock: ManualClock, t0: number): World {
  return {
    driver,
    clock,
    t0,
    labels: new Labeler(),
    jobs: [],
    runIds: new Map(),
    fences: [],
    seen: new Map(),
    refusal: undefined,
    page: undefined,
  };
}

export const nth = <T>(items: readonly T[], at: number): T | undefined =>
  items.length === 0 ? undefined : items[at % items.length];

export function learnJobs(world: World, results: readonly EnqueueResult[]): void {
  for (const result of results) {
    if (!world.runIds.has(result.id)) world.jobs.push(result.id);
    world.runIds.set(result.id, result.runId);
  }
}

export function learnFences(world: World, claimed: readonly ClaimedJob[]): void {
  for (const job of claimed) {
    world.fences.push({ jobId: job.id, workerId: job.claimedBy, claim: job.claim });
  }
}

export function targetId(world: World, target: Target): string | undefined {
  if (target === 'unknown') return UNKNOWN_ID;
  if (typeof target === 'number') return nth(world.jobs, target);
  const settled = [...world.seen].filter(([, state]) => TERMINAL_STATES.has(state));
  // Most recently seen first: index 0, what shrinking tends to, names the latest.
  const [id] = nth(settled.reverse(), target.settled) ?? [nth(world.jobs, target.settled)];
  return id;
}

const isRecord = (value: unknown): value is JobRecord =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Partial<JobRecord>).id === 'string' &&
  typeof (value as Partial<JobRecord>).state === 'string';

/** Notes the states an answer shows (a cancel's record, a claim's rows, a page). */
export function learnStates(world: World, answer: unknown, depth = 0): void {
  if (depth > 2 || answer === null || typeof answer !== 'object') return;
  if (isRecord(answer)) {
    world.seen.delete(answer.id);
    world.seen.set(answer.id, answer.state);
    return;
  }
  for (const value of Object.values(answer)) learnStates(world, value, depth + 1);
}

/** A final nack that landed settled its job: what the contract says it became. */
export function learnGivenUp(world: World, op: Extract<Op, { kind: 'nack' }>): void {
  const fence = nth(world.fences, op.fence);
  if (fence === undefined) return;
  world.seen.delete(fence.jobId);
  world.seen.set(fence.jobId, op.deadLetter === false ? 'failed' : 'dead');
}
