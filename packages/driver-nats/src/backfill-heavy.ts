import type { BackfillRun, Json } from '@berth/core/driver';
import { type Heavy, type Holder, type StoredRun, toRun } from './backfill-doc.js';
import { writeBlob } from './blobs.js';
import { dropAux, dropAuxUnder, type NatsContext } from './context.js';
import { type BlobRef, decodeJson, encodeJson } from './record.js';

/**
 * A run's cursor (at most 4 KiB of JSON) and error (2,000 characters) are the bulk of its
 * name's ledger entry, which holds BACKFILL_RUNS_KEPT final runs plus every active one
 * (`maxActive` goes up to 1,000) and is ONE message, under the server's cap (`max_payload`,
 * 1 MiB by default). So an entry keeps these values inline only while their bytes together
 * stay within a quarter of the cap (at most INLINE_SHARE_MAX): the rest of a run is about 250
 * bytes, so even 1,050 runs plus that share stay under the cap. A value past the share is
 * written in parts (blobs.ts) BEFORE the entry write that names it, so an entry never names a
 * part that is not there; parts nobody names (a write that lost its race, a crash between) are
 * removed with their run. Entries of a few runs with small cursors never spill.
 */
const INLINE_SHARE_MAX = 256 * 1_024;
const DEFAULT_MAX_PAYLOAD = 1_048_576;

export const inlineShare = (context: NatsContext): number =>
  Math.min(INLINE_SHARE_MAX, Math.floor((context.nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD) / 4));

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/** The bytes of cursors and errors `runs` hold inline. */
export function inlineBytes(runs: readonly StoredRun[]): number {
  let bytes = 0;
  for (const run of runs) {
    if (run.cursorPart === undefined) bytes += bytesOf(run.cursor ?? null);
    if (run.lastError !== undefined) bytes += bytesOf(run.lastError);
  }
  return bytes;
}

export type HeavyField = 'cursor' | 'error';

/** Where a run's new cursor or error goes: inline, or parts already written. */
export type Placed<T> = { readonly inline: T } | { readonly part: BlobRef };

/** Places `value` for an entry whose other inline values take `others` bytes. */
export async function place<T extends Json>(
  context: NatsContext,
  runId: string,
  field: HeavyField,
  value: T,
  others: number,
): Promise<Placed<T>> {
  const bytes = encodeJson(value);
  if (others + bytes.length <= inlineShare(context)) return { inline: value };
  const owner = context.subjects.backfillOwner(runId);
  return { part: await writeBlob(context, owner, field, bytes) };
}

export type WithoutCursor = Omit<StoredRun, 'cursor' | 'cursorPart'>;
export type WithoutError = Omit<StoredRun, 'lastError' | 'errorPart'>;

export function withoutCursor(run: StoredRun): WithoutCursor {
  const { cursor: _cursor, cursorPart: _part, ...rest } = run;
  return rest;
}

export function withoutError(run: StoredRun): WithoutError {
  const { lastError: _error, errorPart: _part, ...rest } = run;
  return rest;
}

export const withCursor = (run: WithoutCursor, placed: Placed<Json | null>): StoredRun =>
  'inline' in placed ? { ...run, cursor: placed.inline } : { ...run, cursorPart: placed.part };

export const withError = (run: WithoutError, placed: Placed<string>): StoredRun =>
  'inline' in placed ? { ...run, lastError: placed.inline } : { ...run, errorPart: placed.part };

/** Removes parts no entry names (best effort: what is left goes with the run). */
export async function dropPart(
  context: NatsContext,
  runId: string,
  field: HeavyField,
  part: BlobRef | undefined,
): Promise<void> {
  if (part === undefined) return;
  const owner = context.subjects.backfillOwner(runId);
  await Promise.all(
    Array.from({ length: part.parts }, (_, index) =>
      dropAux(context, context.subjects.blob(owner, field, part.gen, index)),
    ),
  );
}

/** The parts a placement wrote, for a write that did not land. */
export const dropPlaced = <T>(
  context: NatsContext,
  runId: string,
  field: HeavyField,
  placed: Placed<T> | undefined,
): Promise<void> =>
  placed !== undefined && 'part' in placed
    ? dropPart(context, runId, field, placed.part)
    : Promise.resolve();

/** Every part of a run the ledger dropped (best effort). */
export const dropRunParts = (context: NatsContext, runId: string): Promise<void> =>
  dropAuxUnder(context, context.subjects.blobsOf(context.subjects.backfillOwner(runId)));

async function readPart(
  context: NatsContext,
  runId: string,
  field: HeavyField,
  part: BlobRef,
): Promise<Uint8Array | undefined> {
  const owner = context.subjects.backfillOwner(runId);
  const chunks = await Promise.all(
    Array.from({ length: part.parts }, async (_, index) => {
      const entry = await context.aux.get(context.subjects.blob(owner, field, part.gen, index));
      return entry !== null && entry.operation === 'PUT' ? entry.value : undefined;
    }),
  );
  const present = chunks.filter((chunk): chunk is Uint8Array => chunk !== undefined);
  return present.length === chunks.length ? Buffer.concat(present) : undefined;
}

/**
 * The run's cursor and error, or undefined when a part it names is gone: a later write replaced
 * it after the entry was read, so the caller reads the entry again.
 */
export async function heavyOf(context: NatsContext, run: StoredRun): Promise<Heavy | undefined> {
  const [cursor, error] = await Promise.all([
    run.cursorPart === undefined
      ? undefined
      : readPart(context, run.runId, 'cursor', run.cursorPart),
    run.errorPart === undefined ? undefined : readPart(context, run.runId, 'error', run.errorPart),
  ]);
  if (
    (run.cursorPart !== undefined && cursor === undefined) ||
    (run.errorPart !== undefined && error === undefined)
  ) {
    return undefined;
  }
  return {
    cursor: cursor === undefined ? (run.cursor ?? null) : decodeJson<Json | null>(cursor),
    lastError: error === undefined ? run.lastError : decodeJson<string>(error),
  };
}

/** Runs as answered, or undefined when one's cursor or error was replaced since the read. */
export async function answerRuns(
  context: NatsContext,
  entries: readonly { readonly holder: Holder; readonly run: StoredRun }[],
): Promise<BackfillRun[] | undefined> {
  const answers = await Promise.all(
    entries.map(async ({ holder, run }) => {
      const heavy = await heavyOf(context, run);
      return heavy === undefined ? undefined : toRun(holder, run, heavy);
    }),
  );
  const complete = answers.filter((answer): answer is BackfillRun => answer !== undefined);
  return complete.length === answers.length ? complete : undefined;
}
