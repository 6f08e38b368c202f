import { randomUUID } from 'node:crypto';
import {
  effectiveState,
  type JobRecord,
  jobDuplicate,
  jobNotFound,
  jobNotRequeueable,
  REQUEUEABLE_STATES,
  type RequeueOptions,
  stepInvalid,
} from '@berth/core/driver';
import { dropAux, type NatsContext, writeJob } from './context.js';
import { type CurrentJob, decideBatch, readJob } from './docs.js';
import { type Holder, liveHolder, readHolder, takeHolder } from './holders.js';
import { answerOf } from './operator.js';
import type { StepLog, StoredJob } from './record.js';
import { appendEntry, readSteps } from './step-log.js';
import { requeued } from './transitions.js';

/** Times the change re-reads and tries again when the record moved under it. */
const TRIES = 8;

type Keyed = StoredJob & { idempotencyKey: string };
const keyed = (job: StoredJob): job is Keyed => job.idempotencyKey !== undefined;

/** The live row other than `job` that holds its key, if any. */
async function takenBy(
  context: NatsContext,
  job: Keyed,
  holder: Holder,
): Promise<string | undefined> {
  if (holder.id === undefined || holder.id === job.id) return undefined;
  return (await liveHolder(context, job, holder.id)) === undefined ? undefined : holder.id;
}

/** The checks, in the contract's order, on the record read now. Changes nothing. */
async function check(context: NatsContext, id: string, options: RequeueOptions): Promise<void> {
  const current = await readJob(context, id);
  const job = current?.job;
  if (job === undefined || (options.tenantId !== undefined && job.tenantId !== options.tenantId)) {
    throw jobNotFound(id);
  }
  if (!REQUEUEABLE_STATES.has(job.state)) {
    throw jobNotRequeueable(id, effectiveState(job.state, job.runAt, context.clock.now()));
  }
  if (keyed(job)) {
    const holderId = await takenBy(context, job, await readHolder(context, job));
    if (holderId !== undefined) throw jobDuplicate(job, holderId);
  }
  const { fromStep } = options;
  const steps = fromStep === undefined ? [] : await readSteps(context, id, job.runId, job.steps);
  if (fromStep !== undefined && !steps.some((step) => step.name === fromStep)) {
    throw stepInvalid(
      `requeue fromStep ${JSON.stringify(fromStep)} names no step of run ${job.runId}`,
      { jobId: id, runId: job.runId, step: fromStep },
    );
  }
}

type Landed = { readonly job: StoredJob; readonly now: number } | 'retry';

/**
 * With `fromStep`, the cut entry appended to the run's step log (nothing names it yet): the log
 * the requeue's one write gives the record, dropping that step and every later one.
 */
const cutLog = (context: NatsContext, job: StoredJob, fromStep: string | undefined) =>
  fromStep === undefined
    ? Promise.resolve(undefined)
    : appendEntry(context, job.runId, job.steps, { cut: fromStep });

/** A cut entry whose requeue did not land: garbage, removed now (best effort). */
const dropCut = (context: NatsContext, job: StoredJob, cut: StepLog | undefined) =>
  cut === undefined
    ? Promise.resolve()
    : dropAux(context, context.subjects.stepEntry(job.runId, cut.head));

/** Without a key: ONE conditional write of the record, from requeueable to ready. */
async function requeuePlain(
  context: NatsContext,
  current: CurrentJob,
  fromStep: string | undefined,
): Promise<Landed> {
  const now = context.clock.now();
  const cut = await cutLog(context, current.job, fromStep);
  const job = requeued(current.job, cut, now);
  if ((await writeJob(context, current.job.id, { job }, current.revision)) !== undefined) {
    return { job, now };
  }
  await dropCut(context, current.job, cut);
  return 'retry';
}

/**
 * With a key, the row must take its key back: the requeue is written pending in a batch of its
 * own (the row still reads as it was), the holder is pointed at it, and the batch's decision key
 * commits it, the ONE write that makes it live. A key taken meanwhile aborts it (JOB_DUPLICATE);
 * a batch aborted by someone else means another requeue won the race.
 */
async function requeueKeyed(
  context: NatsContext,
  current: CurrentJob & { job: Keyed },
  fromStep: string | undefined,
): Promise<Landed> {
  const { job } = current;
  const holder = await readHolder(context, job);
  const holderId = await takenBy(context, job, holder);
  if (holderId !== undefined) throw jobDuplicate(job, holderId);
  const now = context.clock.now();
  const batch = randomUUID();
  const cut = await cutLog(context, job, fromStep);
  const requeue = { at: now, ...(cut === undefined ? {} : { cut }) };
  const doc = { job, pending: { batch, solo: true, requeue } };
  if ((await writeJob(context, job.id, doc, current.revision)) === undefined) {
    await dropCut(context, job, cut);
    return 'retry';
  }
  // Rewritten even when it names this row already: the write fails if anyone moved it since.
  if (!(await takeHolder(context, job, job.id, holder.revision))) {
    if ((await decideBatch(context, batch, 'aborted')) === 'aborted') return 'retry';
  }
  if ((await decideBatch(context, batch, 'committed')) !== 'committed') {
    // Aborted by a purge that then removed the row (no such job), or by a requeue that won.
    if ((await readJob(context, job.id))?.job === undefined) throw jobNotFound(job.id);
    throw jobNotRequeueable(job.id, 'live');
  }
  return { job: requeued(job, cut, now), now };
}

export async function requeue(
  context: NatsContext,
  id: string,
  options: RequeueOptions,
): Promise<JobRecord> {
  await context.mirror.syncOwn();
  await check(context, id, options);
  await context.hooks.afterRequeueCheck?.();
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    // A writer: a batch still in flight on this record (another requeue's) is aborted first.
    const current = await readJob(context, id, 'abort');
    const job = current?.job;
    // A purge that removed the row after the checks leaves no such job: JOB_NOT_FOUND.
    if (
      current === undefined ||
      job === undefined ||
      (options.tenantId !== undefined && job.tenantId !== options.tenantId)
    ) {
      throw jobNotFound(id);
    }
    if (!REQUEUEABLE_STATES.has(job.state)) throw jobNotRequeueable(id, 'live');
    const landed = keyed(job)
      ? await requeueKeyed(context, { ...current, job }, options.fromStep)
      : await requeuePlain(context, current, options.fromStep);
    if (landed === 'retry') continue;
    context.wake.publish([landed.job.queue]);
    return answerOf(context, landed.job, landed.now);
  }
  throw new Error(`job ${id} kept changing under ${TRIES} requeue writes`);
}
