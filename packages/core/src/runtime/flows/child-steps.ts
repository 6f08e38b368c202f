import type { Driver } from '../../contract/driver.js';
import type { EventRecord } from '../../contract/events.js';
import type { ClaimedJob, Json } from '../../contract/records.js';
import type { StepRecord } from '../../contract/steps.js';
import { stepInvalid } from '../../errors/refusals.js';
import { MAX_EVENT_EXCLUDE } from '../../screen/events.js';
import type { Suspension } from '../steps/run-suspended.js';
import { childFailed, outcomeJson, outcomeOf } from './child-outcome.js';
import { flowEventName } from './flow-names.js';
import type { ChildOutcome } from './flow-types.js';

/** What the child steps use of one attempt's step API (create-step-api.ts). */
export interface StepCore {
  readonly driver: Driver;
  readonly job: ClaimedJob;
  /** Longest park before the parent looks again without an announcement. */
  readonly pollMs: number;
  /** A stored step of the run, read without claiming its name for this attempt. */
  stored(name: string): Promise<StepRecord | undefined>;
  /** Writes a step record, fenced by the attempt. */
  write(record: StepRecord): Promise<void>;
  /** Parks the run (throws the run's suspension). */
  suspend(suspension: Suspension): never;
}

/** A child the parent waits for, and the step that memoizes how it settled. */
export interface WatchedChild {
  readonly id: string;
  readonly step: string;
  /** When the parent began waiting for it (kept in the memo). */
  readonly startedAt: number;
}

const childOf = (event: EventRecord): string | undefined => {
  const payload = event.payload as { kind?: unknown; child?: unknown } | null;
  return payload !== null &&
    typeof payload === 'object' &&
    payload.kind === 'settled' &&
    typeof payload.child === 'string'
    ? payload.child
    : undefined;
};

/**
 * Reads the children that settled and memoizes each one's outcome in its step. Only the children
 * the parent's announcements name are read when there are any (the wake was theirs); otherwise
 * (a poll, a lost announcement) every pending child is. Answers the outcomes found and the
 * announcements seen, which the park then passes over.
 */
export async function lookAtChildren(
  core: StepCore,
  pending: readonly WatchedChild[],
): Promise<{
  readonly settled: ReadonlyMap<string, ChildOutcome>;
  readonly seen: readonly EventRecord[];
}> {
  const { driver, job } = core;
  const event = flowEventName(job.id);
  const seen = await driver.events.list(event);
  const announced = new Set<string>();
  for (const record of seen) {
    const child = childOf(record);
    if (child !== undefined) announced.add(child);
  }
  const fresh = pending.filter((child) => announced.has(child.id));
  const settled = new Map<string, ChildOutcome>();
  for (const child of fresh.length > 0 ? fresh : pending) {
    const record = await driver.get(child.id);
    if (record === undefined) {
      throw stepInvalid(
        `child job ${child.id} of run ${job.runId} is gone (purged or deleted) before its parent read how it settled`,
        { jobId: job.id, runId: job.runId, step: child.step, childId: child.id },
      );
    }
    const outcome = outcomeOf(record);
    if (outcome === undefined) continue;
    await core.write({
      runId: job.runId,
      name: child.step,
      status: 'completed',
      output: outcomeJson(outcome),
      attempts: 0,
      eventName: event,
      startedAt: child.startedAt,
      updatedAt: driver.clock.now(),
    });
    settled.set(child.id, outcome);
  }
  return { settled, seen };
}

/**
 * Parks the parent until a child announces a settle it has not seen, or `pollMs` passes. The
 * suspend looks at the stored announcements itself, passing over those already seen, so one that
 * landed after the look wakes the run at once and an old one never does.
 */
export function parkForChildren(core: StepCore, seen: readonly EventRecord[]): never {
  const { job, driver } = core;
  const until = driver.clock.now() + core.pollMs;
  const waitFor = flowEventName(job.id);
  if (seen.length <= MAX_EVENT_EXCLUDE) {
    return core.suspend({
      until,
      waitFor,
      eventsSince: job.createdAt,
      ...(seen.length === 0 ? {} : { eventsExclude: seen.map((record) => record.id) }),
    });
  }
  // More announcements than a suspend may pass over: only those from the latest instant seen
  // are excluded, and the look starts there.
  const latest = seen.reduce((at, record) => Math.max(at, record.publishedAt), 0);
  return core.suspend({
    until,
    waitFor,
    eventsSince: latest,
    eventsExclude: seen
      .filter((record) => record.publishedAt === latest)
      .map((record) => record.id),
  });
}

/** A memoized outcome as the parent reads it: the result, or JOB_FAILED for a failure. */
export function answerOf(output: Json | undefined): Json {
  const outcome = output as unknown as ChildOutcome;
  if (outcome.state === 'completed') return outcome.result;
  throw childFailed(outcome);
}
