import {
  ACTIVE_BACKFILL_STATUSES,
  BACKFILL_RUNS_KEPT,
  BACKFILL_STATUSES,
  type BackfillBackend,
  type BackfillChange,
  type BackfillRun,
  type BackfillStatus,
  type Json,
  type Mutable,
} from '@berth/core/driver';
import { int } from '../rows.js';
import type { OpsContext } from './context.js';

/** A run as the ledger's statements answer it: int8 arrive as strings, the cursor as JSON text. */
interface BackfillRow {
  readonly run_id: string;
  readonly name: string;
  readonly tenant_id: string | null;
  readonly status: string;
  readonly cursor: string;
  readonly passes: string;
  readonly rows_done: string;
  readonly job_id: string;
  readonly started_at: string;
  readonly updated_at: string;
  readonly finished_at: string | null;
  readonly last_error: string | null;
}

function storedStatus(status: string): BackfillStatus {
  if (!BACKFILL_STATUSES.includes(status as BackfillStatus)) {
    throw new Error(`the backfill_runs table holds an unknown status "${status}"`);
  }
  return status as BackfillStatus;
}

/** The run as every driver answers it: optional fields absent when their column is NULL. */
function toRun(row: BackfillRow): BackfillRun {
  const run: Mutable<BackfillRun> = {
    runId: row.run_id,
    name: row.name,
    status: storedStatus(row.status),
    cursor: JSON.parse(row.cursor) as Json | null,
    passes: int(row.passes),
    rowsDone: int(row.rows_done),
    jobId: row.job_id,
    startedAt: int(row.started_at),
    updatedAt: int(row.updated_at),
  };
  if (row.tenant_id !== null) run.tenantId = row.tenant_id;
  if (row.finished_at !== null) run.finishedAt = int(row.finished_at);
  if (row.last_error !== null) run.lastError = row.last_error;
  return run;
}

/** JSON text for a `$n::jsonb` parameter: a null cursor is stored as JSON `null`. */
const cursorParam = (cursor: Json | null): string => JSON.stringify(cursor);

export function backfillStore({ db, sql, clock }: OpsContext): BackfillBackend {
  const get = async (runId: string, tenantId: string | undefined) => {
    const [row] = await db.rows<BackfillRow>('read a backfill', sql.backfills.get, [
      runId,
      tenantId ?? null,
    ]);
    return row === undefined ? undefined : toRun(row);
  };
  /** A change that did not land answers the run as a fresh read finds it (or undefined). */
  const unchanged = async (
    runId: string,
    tenantId: string | undefined,
  ): Promise<BackfillChange | undefined> => {
    const run = await get(runId, tenantId);
    return run === undefined ? undefined : { changed: false, run };
  };
  return {
    async start(start) {
      const rows = await db.rows<BackfillRow & { started: boolean }>(
        'start a backfill',
        sql.backfills.start,
        [
          start.runId,
          start.name,
          start.tenantId ?? null,
          cursorParam(start.cursor),
          start.jobId,
          start.maxActive,
          clock.now(),
          BACKFILL_RUNS_KEPT,
        ],
      );
      const [first] = rows;
      if (first === undefined) throw new Error('start_backfill answered no row');
      return first.started
        ? { started: true, run: toRun(first) }
        : { started: false, active: rows.map(toRun) };
    },
    get,
    async transition(change) {
      const [row] = await db.rows<BackfillRow>('change a backfill', sql.backfills.transition, [
        change.runId,
        change.tenantId ?? null,
        change.from,
        change.to,
        change.jobId ?? null,
        change.error ?? null,
        clock.now(),
        !ACTIVE_BACKFILL_STATUSES.includes(change.to),
      ]);
      return row === undefined
        ? unchanged(change.runId, change.tenantId)
        : { changed: true, run: toRun(row) };
    },
    async commit(pass) {
      const [row] = await db.rows<BackfillRow>('commit a backfill pass', sql.backfills.commit, [
        pass.runId,
        pass.jobId,
        pass.passes,
        cursorParam(pass.next),
        pass.rows,
        clock.now(),
        pass.next === null,
      ]);
      return row === undefined
        ? unchanged(pass.runId, undefined)
        : { changed: true, run: toRun(row) };
    },
    async list(request) {
      const rows = await db.rows<BackfillRow>('list backfills', sql.backfills.list, [
        request.name ?? null,
        request.status ?? null,
        request.tenantId ?? null,
        request.limit,
      ]);
      return rows.map(toRun);
    },
  };
}
