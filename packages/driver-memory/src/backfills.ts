import {
  ACTIVE_BACKFILL_STATUSES,
  BACKFILL_RUNS_KEPT,
  type BackfillChange,
  type BackfillCommit,
  type BackfillListRequest,
  type BackfillRun,
  type BackfillStart,
  type BackfillStarted,
  type BackfillTransition,
} from '@berth/core/driver';
import type { Store } from './store.js';

/**
 * The backfill ledger: one map entry per run. Every call is one synchronous change. Scans walk
 * the whole ledger, which start keeps bounded (BACKFILL_RUNS_KEPT final runs per name).
 */

const isActive = (run: BackfillRun): boolean => ACTIVE_BACKFILL_STATUSES.includes(run.status);
const isFinal = (run: BackfillRun): boolean => !isActive(run);

/** A run as answered: its cursor copied, so a caller that edits it never edits the ledger. */
const answer = (run: BackfillRun): BackfillRun => ({ ...run, cursor: structuredClone(run.cursor) });

const byStart = (a: BackfillRun, b: BackfillRun): number =>
  a.startedAt - b.startedAt || (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0);

const sameHolder = (run: BackfillRun, name: string, tenantId: string | undefined): boolean =>
  run.name === name && run.tenantId === tenantId;

export function startBackfill(store: Store, start: BackfillStart): BackfillStarted {
  const stored = store.backfills.get(start.runId);
  if (stored !== undefined) return { started: true, run: answer(stored) };
  const holders = [...store.backfills.values()].filter((run) =>
    sameHolder(run, start.name, start.tenantId),
  );
  const active = holders.filter(isActive).sort(byStart);
  if (active.length >= start.maxActive) return { started: false, active: active.map(answer) };
  const now = store.clock.now();
  const run: BackfillRun = {
    runId: start.runId,
    name: start.name,
    ...(start.tenantId === undefined ? {} : { tenantId: start.tenantId }),
    status: 'running',
    cursor: start.cursor,
    passes: 0,
    rowsDone: 0,
    jobId: start.jobId,
    startedAt: now,
    updatedAt: now,
  };
  store.backfills.set(run.runId, run);
  const final = holders.filter(isFinal).sort(byStart);
  for (const old of final.slice(0, Math.max(0, final.length - BACKFILL_RUNS_KEPT))) {
    store.backfills.delete(old.runId);
  }
  return { started: true, run: answer(run) };
}

function visible(
  store: Store,
  runId: string,
  tenantId: string | undefined,
): BackfillRun | undefined {
  const run = store.backfills.get(runId);
  return run === undefined || (tenantId !== undefined && run.tenantId !== tenantId)
    ? undefined
    : run;
}

export function getBackfill(
  store: Store,
  runId: string,
  tenantId: string | undefined,
): BackfillRun | undefined {
  const run = visible(store, runId, tenantId);
  return run === undefined ? undefined : answer(run);
}

export function transitionBackfill(
  store: Store,
  change: BackfillTransition,
): BackfillChange | undefined {
  const run = visible(store, change.runId, change.tenantId);
  if (run === undefined) return undefined;
  if (!change.from.includes(run.status)) return { changed: false, run: answer(run) };
  const now = store.clock.now();
  const next: BackfillRun = {
    ...run,
    status: change.to,
    updatedAt: now,
    ...(change.jobId === undefined ? {} : { jobId: change.jobId }),
    ...(change.error === undefined ? {} : { lastError: change.error }),
    ...(ACTIVE_BACKFILL_STATUSES.includes(change.to) ? {} : { finishedAt: now }),
  };
  store.backfills.set(run.runId, next);
  return { changed: true, run: answer(next) };
}

export function commitBackfill(store: Store, pass: BackfillCommit): BackfillChange | undefined {
  const run = store.backfills.get(pass.runId);
  if (run === undefined) return undefined;
  if (!isActive(run) || run.jobId !== pass.jobId || run.passes !== pass.passes) {
    return { changed: false, run: answer(run) };
  }
  const now = store.clock.now();
  const next: BackfillRun = {
    ...run,
    cursor: pass.next,
    passes: run.passes + 1,
    rowsDone: run.rowsDone + pass.rows,
    updatedAt: now,
    ...(pass.next === null ? { status: 'completed', finishedAt: now } : {}),
  };
  store.backfills.set(run.runId, next);
  return { changed: true, run: answer(next) };
}

export function listBackfills(store: Store, request: BackfillListRequest): BackfillRun[] {
  return [...store.backfills.values()]
    .filter(
      (run) =>
        (request.name === undefined || run.name === request.name) &&
        (request.status === undefined || run.status === request.status) &&
        (request.tenantId === undefined || run.tenantId === request.tenantId),
    )
    .sort((a, b) => byStart(b, a))
    .slice(0, request.limit)
    .map(answer);
}
