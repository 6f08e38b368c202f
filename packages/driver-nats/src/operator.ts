import {
  type ByIdOptions,
  effectiveState,
  type JobRecord,
  jobNotCancellable,
  jobNotFound,
  jobNotPromotable,
  LIVE_STATES,
  type PositionedJob,
  type QueueStats,
  type ScreenedList,
} from '@berth/core/driver';
import { hydrateJob } from './blobs.js';
import { type NatsContext, writeJob } from './context.js';
import { type CurrentJob, readJob } from './docs.js';
import { effectiveJob } from './index/row.js';
import { announce, tailed } from './lifecycle-announce.js';
import type { TailEvent } from './lifecycle-head.js';
import { answerRecord, type StoredJob } from './record.js';
import { cancelled, promoted } from './transitions.js';

/** Times a by-id change re-reads and tries again when its key moved under it. */
const TRIES = 8;

/** The answer a read gives: spilled content read back, nothing shared with the index. */
export async function answerOf(
  context: NatsContext,
  job: StoredJob,
  now: number,
): Promise<JobRecord> {
  return answerRecord(await hydrateJob(context, job), now);
}

/** A row of another tenant (or of none) reads exactly as an id nobody queued. */
const visibleTo = (job: StoredJob | undefined, options: ByIdOptions): job is StoredJob =>
  job !== undefined && (options.tenantId === undefined || job.tenantId === options.tenantId);

export async function get(
  context: NatsContext,
  id: string,
  options: ByIdOptions,
): Promise<JobRecord | undefined> {
  await context.mirror.syncFull();
  const row = context.index.row(id);
  const job = row === undefined ? undefined : effectiveJob(row);
  return visibleTo(job, options) ? answerOf(context, job, context.clock.now()) : undefined;
}

/**
 * A by-id change: the record read now, `decide` answers the new record (or throws a refusal),
 * and ONE conditional write of the record lands it, carrying the lifecycle events `told` names
 * (published before the call answers); when the key moved meanwhile, it is read and decided again.
 */
async function change(
  context: NatsContext,
  id: string,
  options: ByIdOptions,
  decide: (current: CurrentJob, now: number) => StoredJob,
  told: readonly TailEvent['0'][] = [],
): Promise<{ job: StoredJob; now: number }> {
  await context.mirror.syncOwn();
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const current = await readJob(context, id);
    if (!visibleTo(current?.job, options) || current === undefined) throw jobNotFound(id);
    const now = context.clock.now();
    const next = decide(current, now);
    const events = told.map((type): TailEvent => [type, next.attempts]);
    const job = tailed(context, current.job, current.revision, next, events, now);
    if ((await writeJob(context, id, { job }, current.revision)) !== undefined) {
      await announce(context, current.job, job);
      return { job, now };
    }
  }
  throw new Error(`job ${id} kept changing under ${TRIES} writes`);
}

export async function cancel(
  context: NatsContext,
  id: string,
  options: ByIdOptions,
): Promise<JobRecord> {
  // The state the landed write replaced: a running job's workers are told of its cancel.
  let was: StoredJob['state'] | undefined;
  const { job, now } = await change(
    context,
    id,
    options,
    ({ job: current }, at) => {
      if (!LIVE_STATES.has(current.state)) {
        throw jobNotCancellable(id, effectiveState(current.state, current.runAt, at));
      }
      was = current.state;
      return cancelled(current, at);
    },
    ['cancelled'],
  );
  if (was === 'running') context.wake.publishCancelled(id, job.queue);
  // A cancel from any live state settles the job: result waits hear it.
  context.settles.publish([id]);
  return answerOf(context, job, now);
}

export async function promote(
  context: NatsContext,
  id: string,
  options: ByIdOptions,
): Promise<JobRecord> {
  const { job, now } = await change(context, id, options, ({ job: current }, at) => {
    const state = effectiveState(current.state, current.runAt, at);
    if (state !== 'delayed') throw jobNotPromotable(id, state);
    return promoted(current, at);
  });
  context.wake.publish([job.queue]);
  return answerOf(context, job, now);
}

/** Up to `limit + 1` rows from the index, after catching up with every process's writes. */
export async function list(
  context: NatsContext,
  request: ScreenedList,
): Promise<readonly PositionedJob[]> {
  await context.mirror.syncFull();
  const now = context.clock.now();
  const rows = context.index.list(request, now);
  return Promise.all(
    rows.map(async (row) => ({
      job: await answerOf(context, effectiveJob(row), now),
      position: { createdAt: row.job.createdAt, seq: row.seq },
    })),
  );
}

export async function stats(context: NatsContext): Promise<readonly QueueStats[]> {
  await context.mirror.syncFull();
  return context.index.stats(context.clock.now());
}
