import { type Driver, isBerthError, jobInvalid } from '@berth/core';
import type { BulkAction, BulkActionResponse, BulkActionResult } from '../api-types.js';
import { type RequestContext, scope } from '../http/context.js';
import { MAX_TABLE_PAGE } from './jobs.js';

/** What each action reports for a job it landed on. */
const DONE: Readonly<Record<BulkAction, BulkActionResult['outcome']>> = {
  retry: 'requeued',
  cancel: 'cancelled',
  delete: 'deleted',
};

const isAction = (value: unknown): value is BulkAction =>
  typeof value === 'string' && Object.hasOwn(DONE, value);

/** The driver call an action makes for one job. */
function callOf(driver: Driver, action: BulkAction): Driver['cancel'] {
  if (action === 'retry') return (id, options) => driver.requeue(id, options);
  if (action === 'cancel') return (id, options) => driver.cancel(id, options);
  return (id, options) => driver.delete(id, options);
}

/**
 * `{ action, ids }`: the jobs the operator ticked on one table page (at most MAX_TABLE_PAGE),
 * each acted on by id, one at a time, inside the request's tenant. A refusal is that job's
 * outcome (its code and detail: "refused: running") and the rest go on, so the answer says what
 * happened to every job.
 */
export async function bulkJobs(context: RequestContext): Promise<BulkActionResponse> {
  const body = (await context.body()) as Partial<Record<'action' | 'ids', unknown>> | null;
  const action = body?.action;
  const ids = body?.ids;
  if (!isAction(action)) throw jobInvalid('action', 'must be retry, cancel or delete');
  if (
    !Array.isArray(ids) ||
    ids.length === 0 ||
    ids.length > MAX_TABLE_PAGE ||
    !ids.every((id) => typeof id === 'string')
  ) {
    throw jobInvalid('ids', `must list 1 to ${MAX_TABLE_PAGE} job ids`);
  }
  const call = callOf(context.options.driver, action);
  const results: BulkActionResult[] = [];
  for (const id of new Set(ids as readonly string[])) {
    try {
      const job = await call(id, scope(context));
      results.push({ id, outcome: DONE[action], state: job.state });
    } catch (error) {
      if (!isBerthError(error)) throw error;
      const state = (error.meta as { readonly state?: unknown } | undefined)?.state;
      results.push({
        id,
        outcome: 'refused',
        code: error.code,
        message: error.detail,
        ...(typeof state === 'string' ? { reason: state } : {}),
      });
    }
  }
  return { action, results };
}
