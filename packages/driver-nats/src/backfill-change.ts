import {
  ACTIVE_BACKFILL_STATUSES,
  type BackfillChange,
  type BackfillCommit,
  type BackfillTransition,
} from '@berth/core/driver';
import {
  type Heavy,
  type Holder,
  isActive,
  type Ledger,
  readLedger,
  type StoredRun,
  toRun,
} from './backfill-doc.js';
import {
  dropPart,
  dropPlaced,
  inlineBytes,
  place,
  withCursor,
  withError,
  withoutCursor,
  withoutError,
} from './backfill-heavy.js';
import { find, gaveUp, holderOf, replaced, TRIES } from './backfill-read.js';
import { landLedger } from './backfill-writes.js';
import type { NatsContext } from './context.js';

/**
 * One change of one run: `decide` answers the run to write (with the bytes its placement wrote,
 * to drop if the write loses) or undefined to change nothing. Re-reads on every lost race.
 */
async function change(
  context: NatsContext,
  holder: Holder,
  runId: string,
  decide: (ledger: Ledger, run: StoredRun, heavy: Heavy) => Promise<Decided | undefined>,
): Promise<BackfillChange | undefined> {
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const ledger = await readLedger(context, holder);
    const found = await find(context, ledger, runId);
    if (found === 'missing') return undefined;
    if (found === 'moved') continue;
    const decided = await decide(ledger, found.run, found.heavy);
    if (decided === undefined) {
      return { changed: false, run: toRun(holder, found.run, found.heavy) };
    }
    if (await landLedger(context, ledger, replaced(ledger, decided.run))) {
      await decided.landed();
      return { changed: true, run: toRun(holder, decided.run, decided.heavy) };
    }
    await decided.lost();
  }
  throw gaveUp(runId);
}

interface Decided {
  readonly run: StoredRun;
  readonly heavy: Heavy;
  /** Drops the parts the write replaced. */
  landed(): Promise<void>;
  /** Drops the parts the write would have named. */
  lost(): Promise<void>;
}

export async function transitionBackfill(
  context: NatsContext,
  transition: BackfillTransition,
): Promise<BackfillChange | undefined> {
  const { runId, error } = transition;
  const holder = await holderOf(context, runId, transition.tenantId);
  if (holder === undefined) return undefined;
  return change(context, holder, runId, async (ledger, run, heavy) => {
    if (!transition.from.includes(run.status)) return undefined;
    const now = context.clock.now();
    const moved: StoredRun = {
      ...run,
      status: transition.to,
      updatedAt: now,
      ...(transition.jobId === undefined ? {} : { jobId: transition.jobId }),
      ...(ACTIVE_BACKFILL_STATUSES.includes(transition.to) ? {} : { finishedAt: now }),
    };
    if (error === undefined) {
      return { run: moved, heavy, landed: async () => {}, lost: async () => {} };
    }
    const rest = withoutError(moved);
    const placed = await place(context, runId, 'error', error, inlineBytes(replaced(ledger, rest)));
    return {
      run: withError(rest, placed),
      heavy: { cursor: heavy.cursor, lastError: error },
      landed: () => dropPart(context, runId, 'error', run.errorPart),
      lost: () => dropPlaced(context, runId, 'error', placed),
    };
  });
}

export async function commitBackfill(
  context: NatsContext,
  pass: BackfillCommit,
): Promise<BackfillChange | undefined> {
  const { runId } = pass;
  const holder = await holderOf(context, runId, undefined);
  if (holder === undefined) return undefined;
  return change(context, holder, runId, async (ledger, run, heavy) => {
    if (!isActive(run) || run.jobId !== pass.jobId || run.passes !== pass.passes) return undefined;
    const now = context.clock.now();
    const rest = {
      ...withoutCursor(run),
      passes: run.passes + 1,
      rowsDone: run.rowsDone + pass.rows,
      updatedAt: now,
      ...(pass.next === null ? { status: 'completed' as const, finishedAt: now } : {}),
    };
    const placed = await place(
      context,
      runId,
      'cursor',
      pass.next,
      inlineBytes(replaced(ledger, rest)),
    );
    return {
      run: withCursor(rest, placed),
      heavy: { cursor: pass.next, lastError: heavy.lastError },
      landed: () => dropPart(context, runId, 'cursor', run.cursorPart),
      lost: () => dropPlaced(context, runId, 'cursor', placed),
    };
  });
}
