import {
  type AttemptHistory,
  effectiveState,
  type JobRecord,
  type Json,
  type Mutable,
} from '@berth/core/driver';
import type { LifecycleHead } from './lifecycle-head.js';
import { requeued } from './transitions.js';

/**
 * A job as its key in the jobs bucket holds it: the contract's fields with the STORED state, plus
 * what only the driver reads. `seq` is absent on a record's first write: its insertion sequence is
 * then the revision of that write (the bucket's stream sequence), and every later write copies it.
 */
export interface StoredJob extends Omit<JobRecord, 'payload'> {
  /** Absent while spilled (see `spill`). */
  readonly payload?: Json;
  /** When the claim that holds the row took it (the attempt history's `claimedAt`). */
  readonly claimedAt?: number;
  readonly seq?: number;
  /** A waiter is woken by `waitFor` events whose revision is above this one. */
  readonly waitSeq?: number;
  /** The run's step log (see `step-log.ts`): absent until its first step. */
  readonly steps?: StepLog;
  /** The job's attempt history (attempts.ts): absent until an attempt ends. */
  readonly attemptLog?: AttemptHistory;
  /** The job's log (see `logs.ts`): absent until its first line. */
  readonly logs?: LogHead;
  /** Content too large to sit in the record, kept in parts in the aux bucket. */
  readonly spill?: Spill;
  /** Its lifecycle events: how many, and those of its last change that wrote any. */
  readonly lc?: LifecycleHead;
  /**
   * Only on rows an earlier driver version wrote for an `advanceMark` enqueue (job first, mark
   * after): a purge raises it before it removes the row, so such a row never goes while its mark
   * is behind it. Rows written now commit through the mark itself (`Pending.mark`).
   */
  readonly mark?: { readonly name: string; readonly value: number };
}

/** Where a job's log lines are: its newest chunk, and the log's counters (see `logs.ts`). */
export interface LogHead {
  readonly head?: string;
  readonly kept: number;
  readonly dropped: number;
  /** The claim whose holder has offered `next` lines. */
  readonly claim: number;
  readonly next: number;
}

/** Where a run's steps are: the newest entry of its step log, and how many entries it has. */
export interface StepLog {
  readonly head: string;
  readonly n: number;
}

/** Where a spilled value's parts are: its generation and how many parts it has. */
export interface BlobRef {
  readonly gen: string;
  readonly parts: number;
}

export interface Spill {
  readonly payload?: BlobRef;
  readonly result?: BlobRef;
}

/**
 * A change that becomes visible only when its batch commits: the batch's decision key is the ONE
 * conditional write that commits it. Either a new row (`create`) or a requeue of the settled row
 * the doc holds (`requeue`). `solo` batches hold one keyed row whose idempotency holder points at
 * it once it is ready to commit, so anyone who meets it through that holder may commit it; any
 * other in-flight batch may only be aborted by someone else.
 */
export interface Pending {
  readonly batch: string;
  readonly solo: boolean;
  readonly create?: StoredJob;
  /** `cut`: the step log after a fromStep's cut entry (written before this doc). */
  readonly requeue?: { readonly at: number; readonly cut?: StepLog };
  /**
   * An `advanceMark` create: the batch commits only through the write of this mark naming it,
   * conditioned on the mark's revision the enqueue read; `b.<batch>` then records the decision
   * (see enqueue-advancing.ts and mark-commit.ts).
   */
  readonly mark?: MarkCommit;
}

/** The mark write that commits a pending `advanceMark` create. */
export interface MarkCommit {
  readonly name: string;
  readonly value: number;
  /** The mark key's revision the enqueue read (0: never written). */
  readonly revision: number;
}

/** What a job key holds: the visible record (absent while a create is pending), and a pending change. */
export interface StoredDoc {
  readonly job?: StoredJob;
  readonly pending?: Pending;
}

export type BatchState = 'committed' | 'aborted';

/** What a batch decision key holds. */
export interface BatchDoc {
  readonly state: BatchState;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

export const encodeJson = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));
export const decodeJson = <T>(bytes: Uint8Array): T => JSON.parse(decoder.decode(bytes)) as T;

/** The visible record of a doc, given what is known of its pending batch. */
export function visibleJob(doc: StoredDoc, batch: BatchState | undefined): StoredJob | undefined {
  const { pending } = doc;
  if (pending === undefined || batch !== 'committed') return doc.job;
  if (pending.create !== undefined) return pending.create;
  if (doc.job === undefined || pending.requeue === undefined) return doc.job;
  return requeued(doc.job, pending.requeue.cut, pending.requeue.at);
}

/** The insertion sequence: a record's own, or the revision of the write that first held it. */
export const seqOf = (job: StoredJob, revision: number): number => job.seq ?? revision;

/** A suspended waiter's wake by a published event: its runAt and updatedAt become the publish instant. */
export interface Woken {
  readonly at: number;
  readonly eventSeq: number;
}

/**
 * The record a later write starts from: its sequence fixed, and a wake by an event (kept beside it
 * until a write lands) folded into runAt and updatedAt.
 */
export function settledFields(job: StoredJob, seq: number, woken: Woken | undefined): StoredJob {
  if (woken === undefined) return job.seq === seq ? job : { ...job, seq };
  return { ...job, seq, runAt: woken.at, updatedAt: woken.at, waitSeq: woken.eventSeq };
}

/** The record every driver answers: effective state as of `now`, driver-only fields left out. */
export function toRecord(job: StoredJob, now: number): JobRecord {
  const {
    seq: _seq,
    waitSeq: _waitSeq,
    steps: _steps,
    attemptLog: _attemptLog,
    claimedAt: _claimedAt,
    logs: _logs,
    spill: _spill,
    state,
    finishedAt,
    claimedBy,
    claim,
    visibleAt,
    lastError,
    result,
    progress,
    idempotencyKey,
    concurrencyKey,
    tenantId,
    traceparent,
    enqueuedBy,
    parentId,
    waitFor,
  } = job;
  // Built in the contract's field order, so a record reads the same whichever driver made it.
  const record: Mutable<JobRecord> = {
    id: job.id,
    runId: job.runId,
    name: job.name,
    queue: job.queue,
    payload: job.payload ?? null,
    state: effectiveState(state, job.runAt, now),
    priority: job.priority,
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
    runAt: job.runAt,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  } as Mutable<JobRecord>;
  if (finishedAt !== undefined) record.finishedAt = finishedAt;
  if (claimedBy !== undefined) record.claimedBy = claimedBy;
  record.claim = claim;
  if (visibleAt !== undefined) record.visibleAt = visibleAt;
  if (lastError !== undefined) record.lastError = lastError;
  if (result !== undefined) record.result = result;
  if (progress !== undefined) record.progress = progress;
  if (idempotencyKey !== undefined) record.idempotencyKey = idempotencyKey;
  if (concurrencyKey !== undefined) record.concurrencyKey = concurrencyKey;
  if (tenantId !== undefined) record.tenantId = tenantId;
  if (traceparent !== undefined) record.traceparent = traceparent;
  if (enqueuedBy !== undefined) record.enqueuedBy = enqueuedBy;
  if (parentId !== undefined) record.parentId = parentId;
  if (waitFor !== undefined) record.waitFor = waitFor;
  return record;
}

const copy = <T>(value: T): T =>
  value !== null && typeof value === 'object' ? structuredClone(value) : value;

/** {@link toRecord} with its app content copied: an answer never shares objects with the index. */
export function answerRecord(job: StoredJob, now: number): JobRecord {
  const record = toRecord(job, now) as Mutable<JobRecord>;
  record.payload = copy(record.payload);
  if (record.result !== undefined) record.result = copy(record.result);
  if (record.progress !== undefined) record.progress = copy(record.progress);
  if (record.lastError !== undefined) record.lastError = { ...record.lastError };
  return record;
}
