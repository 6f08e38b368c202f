import {
  ACTIVE_BACKFILL_STATUSES,
  type BackfillRun,
  type BackfillStatus,
  type Json,
} from '@berth/core/driver';
import type { NatsContext } from './context.js';
import { type BlobRef, decodeJson } from './record.js';

/** Whose runs a ledger entry holds. */
export interface Holder {
  readonly name: string;
  readonly tenantId: string | undefined;
}

/**
 * A run as its name's ledger entry holds it. The cursor and the error sit inline, or, while the
 * entry's inline share is spent, in parts of the aux bucket (`cursorPart`, `errorPart`; see
 * backfill-heavy.ts): `cursor` is absent exactly when `cursorPart` is set.
 */
export interface StoredRun {
  readonly runId: string;
  readonly status: BackfillStatus;
  readonly cursor?: Json | null;
  readonly cursorPart?: BlobRef;
  readonly passes: number;
  readonly rowsDone: number;
  readonly jobId: string;
  readonly startedAt: number;
  readonly updatedAt: number;
  readonly finishedAt?: number;
  readonly lastError?: string;
  readonly errorPart?: BlobRef;
}

/** What a ledger entry (`f.<hash>.<hash>`) holds: every run of one `(name, tenantId)`. */
export interface LedgerDoc {
  readonly name: string;
  readonly tenantId?: string;
  /** Names the write that made this value: a writer whose answer was lost looks for it. */
  readonly w: string;
  readonly runs: readonly StoredRun[];
}

/** A ledger entry as read now. */
export interface Ledger {
  readonly holder: Holder;
  readonly key: string;
  /** Undefined while the key holds no entry of this holder. */
  readonly doc: LedgerDoc | undefined;
  /** 0 when the key was never written: a conditional write then creates it. */
  readonly revision: number;
}

/** What a run's pointer (`r.<runId>`) holds: the holder whose entry has (or will have) it. */
export interface PointerDoc extends Holder {
  readonly runId: string;
}

/** The cursor and error of a run, read back from wherever they sit. */
export interface Heavy {
  readonly cursor: Json | null;
  readonly lastError: string | undefined;
}

export const isActive = (run: StoredRun): boolean => ACTIVE_BACKFILL_STATUSES.includes(run.status);

/** Oldest start first, then runId (code units), as every driver orders runs. */
export const byStart = (a: StoredRun, b: StoredRun): number =>
  a.startedAt - b.startedAt || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0);

export const sameHolder = (a: Holder, b: Holder): boolean =>
  a.name === b.name && a.tenantId === b.tenantId;

/** Reads a ledger entry by key (the newest value, from the stream leader). */
export async function readLedgerKey(
  context: NatsContext,
  key: string,
): Promise<Ledger | undefined> {
  const entry = await context.aux.get(key);
  if (entry === null || entry.operation !== 'PUT') return undefined;
  const doc = decodeJson<LedgerDoc>(entry.value);
  return { holder: { name: doc.name, tenantId: doc.tenantId }, key, doc, revision: entry.revision };
}

/** The holder's ledger entry; a key holding another holder's doc (a hash clash) reads as none. */
export async function readLedger(context: NatsContext, holder: Holder): Promise<Ledger> {
  const key = context.subjects.backfillRuns(holder.name, holder.tenantId);
  const entry = await context.aux.get(key);
  const doc =
    entry !== null && entry.operation === 'PUT' ? decodeJson<LedgerDoc>(entry.value) : undefined;
  const own = doc !== undefined && sameHolder(holder, { name: doc.name, tenantId: doc.tenantId });
  return { holder, key, doc: own ? doc : undefined, revision: entry?.revision ?? 0 };
}

/** The run's pointer and its revision (0: none). */
export async function readPointer(
  context: NatsContext,
  runId: string,
): Promise<{ readonly doc: PointerDoc | undefined; readonly revision: number }> {
  const entry = await context.aux.get(context.subjects.backfillPointer(runId));
  if (entry === null || entry.operation !== 'PUT') return { doc: undefined, revision: 0 };
  const doc = decodeJson<PointerDoc>(entry.value);
  return { doc: doc.runId === runId ? doc : undefined, revision: entry.revision };
}

/** The run as every ledger call answers it: optional fields absent when unset, cursor a copy. */
export function toRun(holder: Holder, run: StoredRun, heavy: Heavy): BackfillRun {
  return {
    runId: run.runId,
    name: holder.name,
    ...(holder.tenantId === undefined ? {} : { tenantId: holder.tenantId }),
    status: run.status,
    cursor: structuredClone(heavy.cursor),
    passes: run.passes,
    rowsDone: run.rowsDone,
    jobId: run.jobId,
    startedAt: run.startedAt,
    updatedAt: run.updatedAt,
    ...(run.finishedAt === undefined ? {} : { finishedAt: run.finishedAt }),
    ...(heavy.lastError === undefined ? {} : { lastError: heavy.lastError }),
  };
}
