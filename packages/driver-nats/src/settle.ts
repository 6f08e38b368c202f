import {
  type AckItem,
  type AckOptions,
  type Fence,
  matchesEvent,
  type NackItem,
  type NackOptions,
  type SuspendOptions,
  TERMINAL_STATES,
} from '@berth/core/driver';
import { spillJob } from './blobs.js';
import { type NatsContext, writeJob } from './context.js';
import { type CurrentJob, readJob } from './docs.js';
import { eventOf } from './events-codec.js';
import { effectiveJob } from './index/row.js';
import { announce, tailed } from './lifecycle-announce.js';
import { settledEvent, type TailEvent } from './lifecycle-head.js';
import type { StoredJob } from './record.js';
import { acked, extended, fenceHolds, nacked, suspended } from './transitions.js';

/** Times a fenced write re-reads and tries again when its key moved under it. */
const TRIES = 8;

/** A fenced change: the record it writes, given the record that holds the fence. */
type Change = (job: StoredJob, now: number) => StoredJob | Promise<StoredJob>;

/** The lifecycle events a change writes, given the record it wrote (none: a lease extension). */
export type Told = (job: StoredJob) => readonly TailEvent[];

/** A settle's event: the state it left the job in (`retried` when sent back to work). */
const settledTold: Told = (job) => [settledEvent(job)];

/** The job as the index holds it (read-your-writes), or read now when the index has none. */
function fromIndex(context: NatsContext, id: string): CurrentJob | undefined {
  const row = context.index.row(id);
  return row === undefined ? undefined : { job: effectiveJob(row), revision: row.revision };
}

/**
 * Lands `change` only through ONE conditional write of the job's record that still holds the
 * fence: running, this worker, this claim. A stale worker's write meets a record whose claim moved
 * on and lands nothing. When the index's copy disagrees (another process wrote since), the record
 * is read again before answering. The write carries the change's lifecycle events (`told`),
 * published once it landed, before the call answers.
 */
export async function fenced(
  context: NatsContext,
  fence: Fence,
  change: Change,
  now: number,
  told?: Told,
): Promise<StoredJob | undefined> {
  let current = fromIndex(context, fence.jobId);
  let fresh = false;
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    if (current === undefined || !fenceHolds(current.job, fence)) {
      if (fresh) return undefined;
      current = await readJob(context, fence.jobId);
      fresh = true;
      continue;
    }
    const before = current.job;
    const next = await change(before, now);
    const job =
      told === undefined ? next : tailed(context, before, current.revision, next, told(next), now);
    if ((await writeJob(context, fence.jobId, { job }, current.revision)) !== undefined) {
      await announce(context, before, job);
      return job;
    }
    current = await readJob(context, fence.jobId);
    fresh = true;
  }
  throw new Error(`job ${fence.jobId} kept changing under ${TRIES} fenced writes`);
}

/**
 * Lands each item's change, all in flight at once; answers landed per item, in order. Once every
 * write has answered, the queues given work are woken and the ids settled told in one notice,
 * those of items that landed even when another failed (the call then rejects with its error).
 */
async function settleAll(
  context: NatsContext,
  items: readonly { fence: Fence; change: Change }[],
): Promise<boolean[]> {
  await context.mirror.syncOwn();
  const now = context.clock.now();
  const outcomes = await Promise.allSettled(
    items.map((item) => fenced(context, item.fence, item.change, now, settledTold)),
  );
  const woke: string[] = [];
  const settled: string[] = [];
  const landed: boolean[] = [];
  let failure: PromiseRejectedResult | undefined;
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') failure ??= outcome;
    const job = outcome.status === 'fulfilled' ? outcome.value : undefined;
    landed.push(job !== undefined);
    if (job === undefined) continue;
    if (TERMINAL_STATES.has(job.state)) settled.push(job.id);
    else if (
      job.state === 'ready' ||
      job.state === 'delayed' ||
      (job.state === 'suspended' && job.runAt <= now)
    ) {
      woke.push(job.queue);
    }
  }
  context.wake.publish(woke);
  context.settles.publish(settled);
  if (failure !== undefined) throw failure.reason;
  return landed;
}

const ackChange =
  (context: NatsContext, options: AckOptions): Change =>
  (job, now) =>
    spillJob(context, acked(job, options, now));

const nackChange =
  (options: NackOptions): Change =>
  (job, now) =>
    nacked(job, options, now);

export const ack = async (context: NatsContext, fence: Fence, options: AckOptions) =>
  (await settleAll(context, [{ fence, change: ackChange(context, options) }]))[0] === true;

export const nack = async (context: NatsContext, fence: Fence, options: NackOptions) =>
  (await settleAll(context, [{ fence, change: nackChange(options) }]))[0] === true;

export const ackMany = (context: NatsContext, items: readonly AckItem[]) =>
  settleAll(
    context,
    items.map((item) => ({ fence: item.fence, change: ackChange(context, item) })),
  );

export const nackMany = (context: NatsContext, items: readonly NackItem[]) =>
  settleAll(
    context,
    items.map((item) => ({ fence: item.fence, change: nackChange(item) })),
  );

export async function extend(
  context: NatsContext,
  fence: Fence,
  visibilityTimeoutMs: number,
): Promise<boolean> {
  await context.mirror.syncOwn();
  const now = context.clock.now();
  const job = await fenced(
    context,
    fence,
    (current) => extended(current, visibilityTimeoutMs, now),
    now,
  );
  return job !== undefined;
}

/** An unexpired `waitFor` event since `since` that matches `eventsMatch` and is not excluded. */
async function eventCounts(
  context: NatsContext,
  waitFor: string,
  since: number,
  options: SuspendOptions,
  now: number,
): Promise<boolean> {
  for (const entry of context.index.events.since(waitFor, since, now)) {
    if (options.eventsExclude?.includes(entry.event.id) === true) continue;
    if (options.eventsMatch === undefined) return true;
    const event = await eventOf(context, entry.event);
    if (matchesEvent(event.payload, options.eventsMatch)) return true;
  }
  return false;
}

/**
 * A suspend. Waiting for an event, it records the newest revision the index has seen: any event
 * of that name stored above it wakes the row (the publish's own write does, no second write). With
 * `eventsSince`, an unexpired event already stored since then makes it due at once, as the
 * contract asks, closing the gap between a waiter's last look and its suspend.
 */
export async function suspend(
  context: NatsContext,
  fence: Fence,
  options: SuspendOptions,
): Promise<boolean> {
  const { waitFor, eventsSince } = options;
  if (waitFor === undefined) await context.mirror.syncOwn();
  else await context.mirror.syncFull();
  const now = context.clock.now();
  const waitSeq = context.index.delivered;
  const already =
    waitFor !== undefined &&
    eventsSince !== undefined &&
    (await eventCounts(context, waitFor, eventsSince, options, now));
  const runAt = already ? now : options.until;
  const job = await fenced(
    context,
    fence,
    (current) => suspended(current, runAt, waitFor, waitSeq, now),
    now,
    settledTold,
  );
  if (job !== undefined && runAt <= now) context.wake.publish([job.queue]);
  return job !== undefined;
}
