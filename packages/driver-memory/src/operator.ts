import {
  type ByIdOptions,
  type JobRecord,
  jobDuplicate,
  jobNotCancellable,
  jobNotFound,
  jobNotPromotable,
  jobNotRequeueable,
  LIVE_STATES,
  REQUEUEABLE_STATES,
  type RequeueOptions,
  stepInvalid,
} from '@berth/core/driver';
import { endAttempt } from './attempts.js';
import { tell } from './lifecycle.js';
import { stateAt, toRecord } from './record.js';
import { clearLease, findRow, namespaceKey, type Row, type Store, setState } from './store.js';
import { notify, notifyCancelled } from './wake.js';

function mustFind(store: Store, id: string, options: ByIdOptions): Row {
  const row = findRow(store, id, options.tenantId);
  if (row === undefined) throw jobNotFound(id);
  return row;
}

export function get(store: Store, id: string, options: ByIdOptions): JobRecord | undefined {
  const row = findRow(store, id, options.tenantId);
  return row === undefined ? undefined : toRecord(row, store.clock.now());
}

export function cancel(store: Store, id: string, options: ByIdOptions): JobRecord {
  const row = mustFind(store, id, options);
  const now = store.clock.now();
  if (!LIVE_STATES.has(row.state)) throw jobNotCancellable(id, stateAt(row, now));
  const wasRunning = row.state === 'running';
  if (wasRunning) endAttempt(row, 'cancelled', now);
  clearLease(row);
  row.waitFor = undefined;
  row.finishedAt = now;
  row.updatedAt = now;
  setState(store, row, 'cancelled');
  tell(store.lifecycle, row, 'cancelled', now);
  if (wasRunning) notifyCancelled(store, row.queue, row.id);
  return toRecord(row, now);
}

export function promote(store: Store, id: string, options: ByIdOptions): JobRecord {
  const row = mustFind(store, id, options);
  const now = store.clock.now();
  const state = stateAt(row, now);
  if (state !== 'delayed') throw jobNotPromotable(id, state);
  row.runAt = now;
  row.updatedAt = now;
  setState(store, row, 'ready');
  notify(store, [row.queue]);
  return toRecord(row, now);
}

/** JOB_DUPLICATE when a LIVE row other than `row` holds its idempotency key. */
function refuseTakenKey(store: Store, row: Row): void {
  if (row.idempotencyKey === undefined) return;
  const holderId = store.liveKeys.get(namespaceKey(row.name, row.tenantId, row.idempotencyKey));
  if (holderId === undefined || holderId === row.id) return;
  throw jobDuplicate(row, holderId);
}

/** Deletes `fromStep` and every step written after it; earlier steps stay memoized. */
function dropStepsFrom(store: Store, runId: string, fromStep: string): void {
  const steps = store.steps.get(runId);
  if (steps === undefined) return;
  let dropping = false;
  for (const name of [...steps.keys()]) {
    if (name === fromStep) dropping = true;
    if (dropping) steps.delete(name);
  }
  if (steps.size === 0) store.steps.delete(runId);
}

/**
 * Checks in the contract's order, then the race seam, then one synchronous change that
 * re-checks the state: a requeue that won the race inside the seam leaves this one "live".
 */
export async function requeue(
  store: Store,
  id: string,
  options: RequeueOptions,
): Promise<JobRecord> {
  const checked = mustFind(store, id, options);
  if (!REQUEUEABLE_STATES.has(checked.state)) {
    throw jobNotRequeueable(id, stateAt(checked, store.clock.now()));
  }
  refuseTakenKey(store, checked);
  const { fromStep } = options;
  if (fromStep !== undefined && store.steps.get(checked.runId)?.has(fromStep) !== true) {
    throw stepInvalid(
      `requeue fromStep ${JSON.stringify(fromStep)} names no step of run ${checked.runId}`,
      { jobId: id, runId: checked.runId, step: fromStep },
    );
  }
  await store.hooks.afterRequeueCheck?.();

  // A purge that removed the row during the seam leaves no such job: JOB_NOT_FOUND.
  const row = mustFind(store, id, options);
  if (!REQUEUEABLE_STATES.has(row.state)) throw jobNotRequeueable(id, 'live');
  // The key may have been taken during the seam; two live holders must never exist.
  refuseTakenKey(store, row);
  const now = store.clock.now();
  row.runAt = now;
  row.attempts = 0;
  row.updatedAt = now;
  row.finishedAt = undefined;
  row.result = undefined;
  row.waitFor = undefined;
  clearLease(row);
  setState(store, row, 'ready');
  if (fromStep !== undefined) dropStepsFrom(store, row.runId, fromStep);
  notify(store, [row.queue]);
  return toRecord(row, now);
}
