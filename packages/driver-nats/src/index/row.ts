import { effectiveState, type JobState } from '@berth/core/driver';
import { type StoredDoc, type StoredJob, settledFields, type Woken } from '../record.js';

/**
 * One job as the index holds it: the doc its key holds and the revision a conditional write must
 * name, the visible record, and the wake a published event gave it (kept apart until a write folds
 * it in). `runAt`/`updatedAt` are the effective ones; the index re-places a row whenever they move.
 */
export interface Row {
  readonly id: string;
  readonly revision: number;
  readonly doc: StoredDoc;
  /** The visible record (as the doc holds it: its `seq` may be absent, `seq` below is the one). */
  readonly job: StoredJob;
  readonly seq: number;
  woken: Woken | undefined;
  runAt: number;
  updatedAt: number;
  /** Placed among lapsed leases (claimable or to bury), not among live leases. */
  lapsed: boolean;
}

export function makeRow(id: string, revision: number, doc: StoredDoc, job: StoredJob): Row {
  return {
    id,
    revision,
    doc,
    job,
    seq: job.seq ?? revision,
    woken: undefined,
    runAt: job.runAt,
    updatedAt: job.updatedAt,
    lapsed: false,
  };
}

/** The record a write starts from and a read answers: the wake folded in. */
export const effectiveJob = (row: Row): StoredJob => settledFields(row.job, row.seq, row.woken);

export const stateOf = (row: Row, now: number): JobState =>
  effectiveState(row.job.state, row.runAt, now);

/** Claim order: priority desc, then runAt asc, then insertion order. */
export const claimOrder = (a: Row, b: Row): number =>
  b.job.priority - a.job.priority || a.runAt - b.runAt || a.seq - b.seq;

/** Within one priority: runAt, then insertion order (also the order of due-ness). */
export const runAtOrder = (a: Row, b: Row): number => a.runAt - b.runAt || a.seq - b.seq;

/** List position: createdAt, then insertion order (pages walk it from the end). */
export const listOrder = (a: Row, b: Row): number =>
  a.job.createdAt - b.job.createdAt || a.seq - b.seq;

export const leaseOrder = (a: Row, b: Row): number =>
  (a.job.visibleAt ?? 0) - (b.job.visibleAt ?? 0) || a.seq - b.seq;

export const finishedOrder = (a: Row, b: Row): number =>
  (a.job.finishedAt ?? 0) - (b.job.finishedAt ?? 0) || a.seq - b.seq;

/** A stand-in row holding only the fields an order reads: a bound to walk a list from. */
export function probe(fields: {
  runAt?: number;
  seq?: number;
  createdAt?: number;
  visibleAt?: number;
  finishedAt?: number;
  priority?: number;
}): Row {
  const job = {
    createdAt: fields.createdAt ?? 0,
    visibleAt: fields.visibleAt ?? 0,
    finishedAt: fields.finishedAt ?? 0,
    priority: fields.priority ?? 0,
  } as StoredJob;
  return {
    id: '',
    revision: 0,
    doc: {},
    job,
    seq: fields.seq ?? 0,
    woken: undefined,
    runAt: fields.runAt ?? 0,
    updatedAt: 0,
    lapsed: false,
  };
}
