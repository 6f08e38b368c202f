import type { BackfillRun } from '@berth/core/driver';
import {
  type Heavy,
  type Holder,
  type Ledger,
  readLedger,
  readPointer,
  type StoredRun,
  toRun,
} from './backfill-doc.js';
import { heavyOf } from './backfill-heavy.js';
import type { NatsContext } from './context.js';

/** Times a call re-reads and decides again when a racing write got there first. */
export const TRIES = 32;

export const gaveUp = (runId: string): Error =>
  new Error(`backfill run ${runId} kept changing under ${TRIES} tries`);

export type Found = { readonly run: StoredRun; readonly heavy: Heavy } | 'missing' | 'moved';

/** The run in the entry read, with its cursor and error ('moved': a part was replaced since). */
export async function find(context: NatsContext, ledger: Ledger, runId: string): Promise<Found> {
  const run = ledger.doc?.runs.find((stored) => stored.runId === runId);
  if (run === undefined) return 'missing';
  const heavy = await heavyOf(context, run);
  return heavy === undefined ? 'moved' : { run, heavy };
}

export const replaced = (ledger: Ledger, run: StoredRun): StoredRun[] =>
  (ledger.doc?.runs ?? []).map((stored) => (stored.runId === run.runId ? run : stored));

/** Whose entry holds `runId`, per its pointer; undefined when none, or another tenant's. */
export async function holderOf(
  context: NatsContext,
  runId: string,
  tenantId: string | undefined,
): Promise<Holder | undefined> {
  const { doc } = await readPointer(context, runId);
  if (doc === undefined || (tenantId !== undefined && doc.tenantId !== tenantId)) return undefined;
  return { name: doc.name, tenantId: doc.tenantId };
}

export async function readRun(
  context: NatsContext,
  holder: Holder,
  runId: string,
): Promise<BackfillRun | undefined> {
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const found = await find(context, await readLedger(context, holder), runId);
    if (found === 'missing') return undefined;
    if (found !== 'moved') return toRun(holder, found.run, found.heavy);
  }
  throw gaveUp(runId);
}

export async function getBackfill(
  context: NatsContext,
  runId: string,
  tenantId: string | undefined,
): Promise<BackfillRun | undefined> {
  const holder = await holderOf(context, runId, tenantId);
  return holder === undefined ? undefined : readRun(context, holder, runId);
}
