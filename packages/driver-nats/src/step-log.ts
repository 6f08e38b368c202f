import { randomUUID } from 'node:crypto';
import type { StepRecord } from '@berth/core/driver';
import { readBlob, writeBlob } from './blobs.js';
import { type NatsContext, readAuxJson } from './context.js';
import { type BlobRef, decodeJson, encodeJson, type StepLog } from './record.js';

/**
 * A run's steps live outside its record, as a log of entries in the aux bucket, one key each
 * (`t.<runId>.<gen>`), never rewritten. Each entry names the one before it; the record names the
 * newest (its `steps`: head and length), so the ONE conditional write of the record that moves
 * the head commits an entry, and the record's size never grows with the run. An entry no record
 * reaches from its head (a stale worker's, a write that lost its race, a crash before the record
 * write) is garbage, never read, removed with the run.
 *
 * The log is folded in order: a put sets its step (a name's first put takes its place at the end,
 * a later one keeps it); a cut (a requeue fromStep) drops that step and every step after it.
 */

/** A step whose JSON is larger than an entry may be: its parts are elsewhere. */
interface SpilledStep {
  readonly name: string;
  readonly $parts: BlobRef;
}

interface LogEntry {
  /** The entry before this one (absent on the first). */
  readonly prev?: string;
  readonly put?: StepRecord | SpilledStep;
  readonly cut?: string;
}

/** What an entry holds, before it names the one before it. */
export type Change = Omit<LogEntry, 'prev'>;

/** The field a spilled step's parts are under (each write's parts have a generation of their own). */
const STEP_FIELD = 'step';

/** Room an entry leaves beside its step under the part size. */
const ENTRY_HEADROOM = 256;

/**
 * The record's log, or undefined for none. A record of an earlier version kept its steps in a
 * list instead: those are not read (see the changeset), and the run's log starts afresh.
 */
const current = (log: StepLog | undefined): StepLog | undefined =>
  log !== undefined && typeof log.head === 'string' && Number.isSafeInteger(log.n)
    ? log
    : undefined;

/** The step as an entry holds it: inline, or in parts (written now) when it is too large. */
export async function stepChange(
  context: NatsContext,
  jobId: string,
  record: StepRecord,
): Promise<Change> {
  const bytes = encodeJson(record);
  if (bytes.length + ENTRY_HEADROOM <= context.partBytes) return { put: record };
  return { put: { name: record.name, $parts: await writeBlob(context, jobId, STEP_FIELD, bytes) } };
}

/**
 * Writes `changes` as the entries after `log`'s head, in order, all at once (each names the one
 * before it); answers the log whose head is the last of them. Nothing names them until a record
 * write carries that log.
 */
export async function appendEntries(
  context: NatsContext,
  runId: string,
  log: StepLog | undefined,
  changes: readonly Change[],
): Promise<{ readonly log: StepLog; readonly gens: readonly string[] }> {
  const before = current(log);
  const gens = changes.map(() => randomUUID().slice(0, 16));
  await Promise.all(
    changes.map((change, at) => {
      const prev = at === 0 ? before?.head : gens[at - 1];
      const entry: LogEntry = { ...(prev === undefined ? {} : { prev }), ...change };
      return context.aux.put(
        context.subjects.stepEntry(runId, gens[at] as string),
        encodeJson(entry),
      );
    }),
  );
  const head = gens.at(-1) ?? before?.head ?? '';
  return { log: { head, n: (before?.n ?? 0) + changes.length }, gens };
}

/** {@link appendEntries} of one change. */
export const appendEntry = async (
  context: NatsContext,
  runId: string,
  log: StepLog | undefined,
  change: Change,
): Promise<StepLog> => (await appendEntries(context, runId, log, [change])).log;

/** The run's entries that `log` reaches, oldest first (one bulk read of the run's keys). */
async function entriesOf(context: NatsContext, runId: string, log: StepLog): Promise<LogEntry[]> {
  const byGen = new Map<string, LogEntry>();
  const prefixLength = context.subjects.stepEntry(runId, '').length;
  const history = await context.aux.history({ key: context.subjects.stepEntry(runId, '>') });
  for await (const item of history) {
    if (item.operation !== 'PUT') continue;
    byGen.set(item.key.slice(prefixLength), decodeJson<LogEntry>(item.value));
  }
  const entries: LogEntry[] = [];
  for (let gen: string | undefined = log.head; gen !== undefined; ) {
    // A history read may run on a lagging replica of a replicated bucket: ask the leader.
    const entry: LogEntry | undefined =
      byGen.get(gen) ??
      (await readAuxJson<LogEntry>(context, context.subjects.stepEntry(runId, gen)));
    if (entry === undefined) {
      throw new Error(`the step log of run ${runId} names an entry that is gone (${gen})`);
    }
    entries.push(entry);
    gen = entry.prev;
  }
  if (entries.length !== log.n) {
    throw new Error(`the step log of run ${runId} has ${entries.length} entries, not ${log.n}`);
  }
  return entries.reverse();
}

/** The run's steps, in write order, as `log` leaves them. */
export async function readSteps(
  context: NatsContext,
  jobId: string,
  runId: string,
  log: StepLog | undefined,
): Promise<StepRecord[]> {
  const read = current(log);
  if (read === undefined) return [];
  const steps = new Map<string, StepRecord | SpilledStep>();
  for (const entry of await entriesOf(context, runId, read)) {
    if (entry.put !== undefined) steps.set(entry.put.name, entry.put);
    if (entry.cut === undefined) continue;
    let dropping = false;
    for (const name of [...steps.keys()]) {
      dropping ||= name === entry.cut;
      if (dropping) steps.delete(name);
    }
  }
  return Promise.all(
    [...steps.values()].map(async (step) =>
      '$parts' in step
        ? ((await readBlob(context, jobId, STEP_FIELD, step.$parts)) as unknown as StepRecord)
        : step,
    ),
  );
}
