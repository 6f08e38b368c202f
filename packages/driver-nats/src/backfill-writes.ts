import { randomUUID } from 'node:crypto';
import { TimeoutError } from '@nats-io/transport-node';
import {
  type Holder,
  type Ledger,
  type LedgerDoc,
  type PointerDoc,
  readLedger,
  readPointer,
  type StoredRun,
} from './backfill-doc.js';
import { dropRunParts } from './backfill-heavy.js';
import { dropAux, type NatsContext } from './context.js';
import { decodeJson, encodeJson } from './record.js';
import { createKey, purgeKey, writeKey } from './writes.js';

/** Times a write whose answer was lost re-reads its key to decide whether it landed. */
const TRIES = 8;

/** A request that may have landed: its answer timed out, or its connection dropped first. */
const maybeLanded = (error: unknown): error is TimeoutError => error instanceof TimeoutError;

/**
 * ONE conditional write of the ledger entry over the revision read (0: creates it), holding
 * `runs`: true when it landed, false when the entry had moved on (nothing written).
 * A write whose answer was lost (it may have landed, or may still land) reads the entry again:
 * - the entry names this write (`w`): it landed;
 * - the entry is still at the revision read: it is written over unchanged at that revision, so
 *   the lost write, which names the same revision, can never land afterwards: false;
 * - the entry moved on without naming it: it may have landed and been overwritten since, which
 *   no read can tell. The lost answer's error is thrown (DRIVER_UNAVAILABLE: maybe landed); a
 *   retry of the call reads the ledger as it stands.
 */
export async function landLedger(
  context: NatsContext,
  ledger: Ledger,
  runs: readonly StoredRun[],
): Promise<boolean> {
  const { name, tenantId } = ledger.holder;
  const doc: LedgerDoc = {
    name,
    ...(tenantId === undefined ? {} : { tenantId }),
    w: randomUUID(),
    runs,
  };
  try {
    return (
      (await writeKey(context.aux, ledger.key, encodeJson(doc), ledger.revision)) !== undefined
    );
  } catch (error) {
    if (!maybeLanded(error)) throw error;
    return decideLost(context, ledger, doc, error);
  }
}

async function decideLost(
  context: NatsContext,
  ledger: Ledger,
  wrote: LedgerDoc,
  lost: TimeoutError,
): Promise<boolean> {
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const entry = await context.aux.get(ledger.key);
    const stored = entry !== null && entry.operation === 'PUT' ? entry.value : undefined;
    if (stored !== undefined && decodeJson<LedgerDoc>(stored).w === wrote.w) return true;
    if ((entry?.revision ?? 0) !== ledger.revision) throw lost;
    const fence = stored ?? encodeJson({ ...wrote, w: randomUUID(), runs: [] });
    if ((await writeKey(context.aux, ledger.key, fence, ledger.revision)) !== undefined)
      return false;
  }
  throw lost;
}

/**
 * The run's pointer, created when missing (create-only: it never names another holder once
 * written). `created` is the revision this call created it at, 0 when it was there already
 * (or a lost answer leaves that unknown).
 */
export async function ensurePointer(
  context: NatsContext,
  runId: string,
  holder: Holder,
): Promise<{ readonly doc: PointerDoc; readonly created: number }> {
  const key = context.subjects.backfillPointer(runId);
  const doc: PointerDoc = { runId, name: holder.name, tenantId: holder.tenantId };
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    try {
      const created = await createKey(context.aux, key, encodeJson(doc));
      if (created !== undefined) return { doc, created };
    } catch (error) {
      if (!maybeLanded(error)) throw error;
    }
    const read = await readPointer(context, runId);
    if (read.doc !== undefined) return { doc: read.doc, created: 0 };
  }
  throw new Error(`the pointer of backfill run ${runId} kept changing under ${TRIES} tries`);
}

/**
 * Removes the pointer a refused start created, if still at that revision. A start of the same
 * runId racing this one may have stored the run meanwhile (it found this pointer, so made none):
 * the ledger is read after the removal and the pointer put back if it holds the run. That start
 * also checks its pointer after its write (`keepPointer`), so one of them puts it back.
 */
export async function forgetPointer(
  context: NatsContext,
  runId: string,
  holder: Holder,
  revision: number,
): Promise<void> {
  const subject = context.subjects.auxSubject(context.subjects.backfillPointer(runId));
  const gone = await purgeKey(context.jsm, context.subjects.auxStream, subject, revision).catch(
    () => false,
  );
  if (!gone) return;
  const ledger = await readLedger(context, holder);
  if (ledger.doc?.runs.some((run) => run.runId === runId)) {
    await ensurePointer(context, runId, holder);
  }
}

/** After a write stored a run whose pointer this call did not create: the pointer is still there. */
export async function keepPointer(context: NatsContext, runId: string, holder: Holder) {
  if ((await readPointer(context, runId)).doc === undefined) {
    await ensurePointer(context, runId, holder);
  }
}

/** The pointers and parts of runs a start dropped past retention (best effort). */
export async function dropRuns(context: NatsContext, runIds: readonly string[]): Promise<void> {
  await Promise.all(
    runIds.flatMap((runId) => [
      dropAux(context, context.subjects.backfillPointer(runId)),
      dropRunParts(context, runId),
    ]),
  );
}
