import { isJobState, jobInvalid, type ListRequest } from '@berth/core';
import { jobNotFound } from '@berth/core/driver';
import type { JobResponse, JobsResponse } from '../api-types.js';
import { idParam, queryText, type RequestContext, scope } from '../http/context.js';
import { actionsFor, toJobView, toStepView, toSummary } from './views.js';

export const DEFAULT_TABLE_PAGE = 25;
export const MAX_TABLE_PAGE = 100;

function pageSize(query: URLSearchParams): number {
  const given = queryText(query, 'limit');
  if (given === undefined) return DEFAULT_TABLE_PAGE;
  const size = Number(given);
  if (!Number.isInteger(size) || size < 1 || size > MAX_TABLE_PAGE) {
    throw jobInvalid('limit', `must be an integer from 1 to ${MAX_TABLE_PAGE}`);
  }
  return size;
}

/** One page of the jobs table: the driver's keyset cursors pass through untouched. */
export async function listJobs(context: RequestContext): Promise<JobsResponse> {
  const { query } = context;
  const state = queryText(query, 'state');
  if (state !== undefined && !isJobState(state)) throw jobInvalid('state', 'is not a job state');
  // A scoped dashboard ignores the tenant filter: the scope is the only tenant it may see.
  const tenantId = context.tenantId ?? queryText(query, 'tenant');
  const optional = {
    state,
    queue: queryText(query, 'queue'),
    name: queryText(query, 'name'),
    tenantId,
    after: queryText(query, 'after'),
    before: queryText(query, 'before'),
  };
  const request: ListRequest = { limit: pageSize(query) };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) Object.assign(request, { [key]: value });
  }
  const page = await context.options.driver.list(request);
  return {
    jobs: page.jobs.map(toSummary),
    ...(page.next === undefined ? {} : { next: page.next }),
    ...(page.prev === undefined ? {} : { prev: page.prev }),
  };
}

/** The job page: the record, its attempts, its steps in write order, and what may be done to it. */
export async function getJob(context: RequestContext): Promise<JobResponse> {
  const { driver, readOnly } = context.options;
  const id = idParam(context);
  const job = await driver.get(id, scope(context));
  if (job === undefined) throw jobNotFound(id);
  const steps = await driver.steps.list(job.runId);
  // Purged between the two reads: its history went with it.
  const attempts = (await driver.attempts.list(id, scope(context))) ?? { records: [], dropped: 0 };
  return {
    job: toJobView(job),
    attempts,
    steps: steps.map(toStepView),
    actions: actionsFor(job, steps.length, readOnly),
  };
}
