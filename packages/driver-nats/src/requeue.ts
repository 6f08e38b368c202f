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
} from '@berth/core';
import { type NatsContext, writeJob } from './context.js';
import { type CurrentJob, decideBatch, readJob } from './docs.js';
import { type Holder, liveHolder, readHolder, takeHolder } from './holders.js';
import { answerOf } from './operator.js';
import type { StoredJob } from './record.js';
import { dropStepPayloads } from './steps.js';
import { requeued, stepGen } from './transitions.js';

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
  if (fromStep !== undefined && stepGen(job, fromStep) === undefined) {
    throw stepInvalid(
      `requeue fromStep ${JSON.stringify(fromStep)} names no step of run ${job.runId}`,
      { jobId: id, runId: job.runId, step: fromStep },
    );
  }
}

type Landed = { readonly job: StoredJob; readonly now: number } | 'retry';

/** Without a key: ONE conditional write of the record, from requeueable to ready. */
async function requeuePlain(
  context: NatsContext,
  current: CurrentJob,
  fromStep: string | undefined,
): Promise<Landed> {
  const now = context.clock.now();
  const job = requeued(current.job, fromStep, now);
  const written = await writeJob(context, current.job.id, { job }, current.revision);
  return written === undefined ? 'retry' : { job, now };
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
  const requeue = { at: now, ...(fromStep === undefined ? {} : { fromStep }) };
  const doc = { job, pending: { batch, solo: true, requeue } };
  if ((await writeJob(context, job.id, doc, current.revision)) === undefined) return 'retry';
  // Rewritten even when it names this row already: the write fails if anyone moved it since.
  if (!(await takeHolder(context, job, job.id, holder.revision))) {
    if ((await decideBatch(context, batch, 'aborted')) === 'aborted') return 'retry';
  }
  if ((await decideBatch(context, batch, 'committed')) !== 'committed') {
    // Aborted by a purge that then removed the row (no such job), or by a requeue that won.
    if ((await readJob(context, job.id))?.job === undefined) throw jobNotFound(job.id);
    throw jobNotRequeueable(job.id, 'live');
  }
  return { job: requeued(job, fromStep, now), now };
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
    const current = await readJob(context, id);
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
    await dropStepPayloads(context, job, landed.job);
    return answerOf(context, landed.job, landed.now);
  }
  throw new Error(`job ${id} kept changing under ${TRIES} requeue writes`);
}
