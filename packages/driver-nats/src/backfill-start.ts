import { BACKFILL_RUNS_KEPT, type BackfillStart, type BackfillStarted } from '@berth/core/driver';
import { TimeoutError } from '@nats-io/transport-node';
import {
  byStart,
  type Holder,
  isActive,
  type PointerDoc,
  readLedger,
  readPointer,
  type StoredRun,
  sameHolder,
  toRun,
} from './backfill-doc.js';
import { answerRuns, dropPlaced, inlineBytes, place, withCursor } from './backfill-heavy.js';
import { find, gaveUp, readRun, TRIES } from './backfill-read.js';
import {
  dropRuns,
  ensurePointer,
  forgetPointer,
  keepPointer,
  landLedger,
} from './backfill-writes.js';
import type { NatsContext } from './context.js';

/** A runId whose pointer names another holder: that run, as a retried start answers it. */
async function startedElsewhere(context: NatsContext, pointer: PointerDoc) {
  const run = await readRun(context, pointer, pointer.runId);
  if (run !== undefined) return { started: true as const, run };
  throw new Error(
    `backfill run ${pointer.runId} was begun for another name or tenant and never stored: start with a new runId`,
  );
}

/** The runs a start keeps: the oldest final runs past BACKFILL_RUNS_KEPT go. */
function retained(runs: readonly StoredRun[]): { kept: StoredRun[]; dropped: string[] } {
  const finals = runs.filter((run) => !isActive(run)).sort(byStart);
  const past = finals.slice(0, Math.max(0, finals.length - BACKFILL_RUNS_KEPT));
  const dropped = new Set(past.map((run) => run.runId));
  return { kept: runs.filter((run) => !dropped.has(run.runId)), dropped: [...dropped] };
}

export async function startBackfill(
  context: NatsContext,
  start: BackfillStart,
): Promise<BackfillStarted> {
  const { runId } = start;
  const holder: Holder = { name: start.name, tenantId: start.tenantId };
  const pointed = await readPointer(context, runId);
  if (pointed.doc !== undefined && !sameHolder(pointed.doc, holder)) {
    return startedElsewhere(context, pointed.doc);
  }
  // The revision this call created the pointer at (0: it was there); undefined: none yet.
  let created = pointed.doc === undefined ? undefined : 0;
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const ledger = await readLedger(context, holder);
    const runs = ledger.doc?.runs ?? [];
    const found = await find(context, ledger, runId);
    if (found === 'moved') continue;
    if (found !== 'missing') {
      // Stored: a pointer missing at the first read (a racing refusal of this runId removed
      // it) is put back.
      if (created === undefined) await keepPointer(context, runId, holder);
      return { started: true, run: toRun(holder, found.run, found.heavy) };
    }
    const active = runs.filter(isActive).sort(byStart);
    if (active.length >= start.maxActive) {
      const answered = await answerRuns(
        context,
        active.map((run) => ({ holder, run })),
      );
      if (answered === undefined) continue;
      if (created !== undefined && created !== 0) {
        await forgetPointer(context, runId, holder, created);
      }
      return { started: false, active: answered };
    }
    if (created === undefined) {
      const ensured = await ensurePointer(context, runId, holder);
      if (!sameHolder(ensured.doc, holder)) return startedElsewhere(context, ensured.doc);
      created = ensured.created;
    }
    const { kept, dropped } = retained(runs);
    const now = context.clock.now();
    const placed = await place(context, runId, 'cursor', start.cursor, inlineBytes(kept));
    const base = { runId, status: 'running' as const, passes: 0, rowsDone: 0, jobId: start.jobId };
    const run = withCursor({ ...base, startedAt: now, updatedAt: now }, placed);
    let landed: boolean;
    try {
      landed = await landLedger(context, ledger, [...kept, run]);
    } catch (error) {
      // Maybe landed: the next read finds the run stored, or not.
      if (error instanceof TimeoutError) continue;
      throw error;
    }
    if (!landed) {
      await dropPlaced(context, runId, 'cursor', placed);
      continue;
    }
    if (created === 0) await keepPointer(context, runId, holder);
    await dropRuns(context, dropped);
    return {
      started: true,
      run: toRun(holder, run, { cursor: start.cursor, lastError: undefined }),
    };
  }
  throw gaveUp(runId);
}
