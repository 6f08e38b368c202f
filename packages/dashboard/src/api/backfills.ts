import {
  BACKFILL_STATUSES,
  type BackfillListOptions,
  type BackfillRun,
  backfillControl,
  backfillNotFound,
  jobInvalid,
  LIVE_STATES,
  MAX_BACKFILL_LIST_LIMIT,
} from '@berth/core';
import type { BackfillResponse, BackfillRunView, BackfillsResponse } from '../backfill-types.js';
import { idParam, objectBody, queryText, type RequestContext, scope } from '../http/context.js';

/** Runs the page lists when the request names no `limit`. */
export const DEFAULT_BACKFILL_LIMIT = 50;

/** The list's filters, screened here so a bad one is a 400 naming it, as the jobs table's. */
function listOptions(context: RequestContext): BackfillListOptions {
  const { query } = context;
  const status = queryText(query, 'status');
  const found = BACKFILL_STATUSES.find((known) => known === status);
  if (status !== undefined && found === undefined) {
    throw jobInvalid('status', `is not a backfill status: ${BACKFILL_STATUSES.join(', ')}`);
  }
  const given = queryText(query, 'limit');
  const limit = given === undefined ? DEFAULT_BACKFILL_LIMIT : Number(given);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_BACKFILL_LIST_LIMIT) {
    throw jobInvalid('limit', `must be an integer from 1 to ${MAX_BACKFILL_LIST_LIMIT}`);
  }
  const name = queryText(query, 'name');
  // A scoped dashboard ignores the tenant filter: the scope is the only tenant it may see.
  const tenantId = context.tenantId ?? queryText(query, 'tenant');
  return {
    limit,
    ...(found === undefined ? {} : { status: found }),
    ...(name === undefined ? {} : { name }),
    ...(tenantId === undefined ? {} : { tenantId }),
  };
}

/** A running run whose runner job is gone or settled: nothing drives it until a resume. */
async function isStalled(context: RequestContext, run: BackfillRun): Promise<boolean> {
  if (run.status !== 'running') return false;
  const runner = await context.options.driver.get(run.jobId, scope(context));
  return runner === undefined || !LIVE_STATES.has(runner.state);
}

async function viewOf(context: RequestContext, run: BackfillRun): Promise<BackfillRunView> {
  const stalled = await isStalled(context, run);
  const elapsedMs = run.updatedAt - run.startedAt;
  const active = run.status === 'running' || run.status === 'paused';
  const allowed = !context.options.readOnly;
  return {
    runId: run.runId,
    name: run.name,
    ...(run.tenantId === undefined ? {} : { tenantId: run.tenantId }),
    status: run.status,
    cursor: run.cursor,
    passes: run.passes,
    rowsDone: run.rowsDone,
    jobId: run.jobId,
    startedAt: run.startedAt,
    updatedAt: run.updatedAt,
    ...(run.finishedAt === undefined ? {} : { finishedAt: run.finishedAt }),
    ...(run.lastError === undefined ? {} : { lastError: run.lastError }),
    rowsPerSecond: elapsedMs > 0 ? run.rowsDone / (elapsedMs / 1000) : null,
    stalled,
    actions: {
      pause: allowed && run.status === 'running',
      resume: allowed && (run.status === 'paused' || stalled),
      cancel: allowed && active,
    },
  };
}

/** The ledger's runs, newest start first, filtered by name, status and (unscoped) tenant. */
export async function listBackfills(context: RequestContext): Promise<BackfillsResponse> {
  const options = listOptions(context);
  const runs = await backfillControl(context.options.driver).list(options);
  return {
    runs: await Promise.all(runs.map((run) => viewOf(context, run))),
    limit: options.limit ?? DEFAULT_BACKFILL_LIMIT,
  };
}

/** One run; another tenant's on a scoped dashboard answers as missing. */
export async function getBackfill(context: RequestContext): Promise<BackfillResponse> {
  const runId = idParam(context);
  const run = await backfillControl(context.options.driver).get(runId, scope(context));
  if (run === undefined) {
    throw backfillNotFound(runId);
  }
  return { run: await viewOf(context, run) };
}

/** Pause, resume or cancel, inside the request's tenant; core answers the run as it now stands. */
const steer =
  (verb: 'pause' | 'resume' | 'cancel') =>
  async (context: RequestContext): Promise<BackfillResponse> => {
    await objectBody(context);
    const control = backfillControl(context.options.driver);
    const run = await control[verb](idParam(context), scope(context));
    return { run: await viewOf(context, run) };
  };

export const pauseBackfill = steer('pause');
export const resumeBackfill = steer('resume');
export const cancelBackfill = steer('cancel');
