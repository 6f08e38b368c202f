import {
  type ByIdOptions,
  effectiveState,
  JOB_STATES,
  type JobRecord,
  jobDuplicate,
  jobNotCancellable,
  jobNotFound,
  jobNotPromotable,
  jobNotRequeueable,
  type PositionedJob,
  type PurgeRequest,
  type QueueStats,
  REQUEUEABLE_STATES,
  type RequeueOptions,
  type ScreenedList,
  type StateCounts,
  stepInvalid,
} from '@berth/core/driver';
import { sqlState } from '../executor.js';
import { int, type JobRow, positionOf, storedState, toJobRecord } from '../rows.js';
import type { OpsContext } from './context.js';
import { DEFAULT_PURGE_BATCH } from './stores.js';

type ChangeRow = JobRow & { readonly moved: boolean };
type CheckRow = JobRow & { readonly holder_id: string | null; readonly has_step: boolean };

/** The requeued row's key namespace, as `jobDuplicate` names it. */
const wantedKey = (row: JobRow) => ({
  name: row.name,
  idempotencyKey: row.idempotency_key ?? undefined,
  tenantId: row.tenant_id ?? undefined,
});
type StatsRow = { readonly queue: string; readonly oldest_ready: string | null } & Record<
  string,
  string | null
>;

/** get, cancel, promote, requeue, list, stats and purge. */
export function operatorOps(context: OpsContext) {
  const { db, sql, clock, hooks, channel, cancelChannel, settleChannel } = context;
  const tenant = (options: ByIdOptions) => options.tenantId ?? null;

  async function get(id: string, options: ByIdOptions): Promise<JobRecord | undefined> {
    const now = clock.now();
    const [row] = await db.rows<JobRow>('get a job', sql.operator.get, [id, tenant(options)]);
    return row === undefined ? undefined : toJobRecord(row, now);
  }

  /** A change that answers the moved row, or the row as it stood when it did not land. */
  async function change(
    operation: string,
    text: string,
    id: string,
    options: ByIdOptions,
    refuse: (row: JobRecord) => Error,
    told: readonly string[],
  ): Promise<JobRecord> {
    const now = clock.now();
    const values: unknown[] = [id, tenant(options), now, ...told];
    const [row] = await db.rows<ChangeRow>(operation, text, values);
    if (row === undefined) throw jobNotFound(id);
    const record = toJobRecord(row, now);
    if (!row.moved) throw refuse(record);
    return record;
  }

  const cancel = (id: string, options: ByIdOptions) =>
    change(
      'cancel a job',
      sql.operator.cancel,
      id,
      options,
      (row) => jobNotCancellable(id, row.state),
      [cancelChannel, settleChannel],
    );

  const promote = (id: string, options: ByIdOptions) =>
    change(
      'promote a job',
      sql.operator.promote,
      id,
      options,
      (row) => jobNotPromotable(id, row.state),
      [channel],
    );

  async function requeue(id: string, options: RequeueOptions): Promise<JobRecord> {
    const fromStep = options.fromStep ?? null;
    const [row] = await db.rows<CheckRow>('requeue a job', sql.operator.requeueCheck, [
      id,
      tenant(options),
      fromStep,
    ]);
    if (row === undefined) throw jobNotFound(id);
    const stored = storedState(row);
    if (!REQUEUEABLE_STATES.has(stored)) {
      throw jobNotRequeueable(id, effectiveState(stored, int(row.run_at), clock.now()));
    }
    if (row.holder_id !== null && row.idempotency_key !== null) {
      throw jobDuplicate(wantedKey(row), row.holder_id);
    }
    if (fromStep !== null && !row.has_step) {
      throw stepInvalid(`requeue fromStep "${fromStep}" names no step of run ${row.run_id}`, {
        jobId: id,
        runId: row.run_id,
        step: fromStep,
      });
    }
    await hooks.afterRequeueCheck?.();
    const now = clock.now();
    let moved: JobRow[];
    try {
      moved = await db.guarded<JobRow>('requeue a job', sql.operator.requeue, [
        id,
        tenant(options),
        now,
        channel,
        fromStep,
      ]);
    } catch (error) {
      // A live holder of the key appeared after the check: the live-key index refused the move.
      if (sqlState(error) !== '23505' || row.idempotency_key === null) throw error;
      const [holder] = await db.rows<{ id: string }>('requeue a job', sql.enqueue.holder, [
        row.name,
        row.tenant_id,
        row.idempotency_key,
      ]);
      if (holder === undefined) throw error;
      throw jobDuplicate(wantedKey(row), holder.id);
    }
    const [done] = moved;
    if (done === undefined) {
      // The row changed after the check: gone (a purge removed it) or live again.
      const [still] = await db.rows<JobRow>('requeue a job', sql.operator.get, [
        id,
        tenant(options),
      ]);
      if (still === undefined) throw jobNotFound(id);
      throw jobNotRequeueable(id, 'live');
    }
    return toJobRecord(done, now);
  }

  async function list(request: ScreenedList): Promise<PositionedJob[]> {
    const now = clock.now();
    const cursor = request.before ?? request.after;
    const rows = await db.rows<JobRow>(
      'list jobs',
      request.before === undefined ? sql.list.forward : sql.list.backward,
      [
        now,
        request.state ?? null,
        request.queue ?? null,
        request.name ?? null,
        request.tenantId ?? null,
        request.limit + 1,
        cursor?.createdAt ?? null,
        cursor?.seq ?? null,
      ],
    );
    return rows.map((row) => ({ job: toJobRecord(row, now), position: positionOf(row) }));
  }

  async function stats(): Promise<QueueStats[]> {
    const now = clock.now();
    const rows = await db.rows<StatsRow>('read stats', sql.list.stats, [now]);
    const answers = rows.map((row) => {
      const counts = Object.fromEntries(
        JOB_STATES.map((state) => [state, Number(row[state] ?? 0)]),
      ) as unknown as StateCounts;
      return {
        queue: row.queue,
        counts,
        oldestReadyAgeMs: row.oldest_ready === null ? null : now - int(row.oldest_ready),
      };
    });
    // COLLATE "C" is UTF-8 byte order; the contract's order is UTF-16 code units, as memory's.
    return answers.sort((a, b) => (a.queue < b.queue ? -1 : a.queue > b.queue ? 1 : 0));
  }

  /** One bounded statement: callers that want everything loop until it answers < limit. */
  async function purge(request: PurgeRequest): Promise<number> {
    const limit = (request as { readonly limit?: number }).limit ?? DEFAULT_PURGE_BATCH;
    const [row] =
      request.ids === undefined
        ? await db.rows<{ removed: string }>('purge jobs', sql.list.purge, [
            request.states,
            request.olderThan,
            limit,
          ])
        : await db.rows<{ removed: string }>('purge jobs by id', sql.list.purgeIds, [
            request.states,
            request.olderThan,
            limit,
            request.ids,
          ]);
    return row === undefined ? 0 : int(row.removed);
  }

  return { get, cancel, promote, requeue, list, stats, purge };
}
