import { isUuid, type JobRecord, jobInvalid, type ListRequest } from '@berth/core';
import type { FindResponse, JobSummary } from '../api-types.js';
import { type RequestContext, scope } from '../http/context.js';
import { ProblemError } from '../http/respond.js';
import { toSummary } from './views.js';

/** Rows one list call of the search reads: the contract's largest page. */
export const ID_SEARCH_PAGE = 500;
/** Fewer characters than this match too many ids to be worth a scan. */
export const MIN_ID_PART = 4;
/** Candidates an ambiguous part answers; the search stops once it has one more. */
const MAX_CANDIDATES = 10;

const matches = (jobId: string, part: string): boolean =>
  jobId.startsWith(part) || jobId.endsWith(part);

/**
 * Reads the newest `limit` jobs (of the request's tenant), in pages of ID_SEARCH_PAGE, until it
 * has more candidates than it shows or reaches the bound.
 */
async function scan(context: RequestContext, part: string, limit: number) {
  const found: JobRecord[] = [];
  let scanned = 0;
  let after: string | undefined;
  let exhausted = false;
  while (scanned < limit && found.length <= MAX_CANDIDATES) {
    const request: ListRequest = { limit: Math.min(ID_SEARCH_PAGE, limit - scanned) };
    if (context.tenantId !== undefined) Object.assign(request, { tenantId: context.tenantId });
    if (after !== undefined) Object.assign(request, { after });
    const page = await context.options.driver.list(request);
    scanned += page.jobs.length;
    found.push(...page.jobs.filter((job) => matches(job.id, part)));
    if (page.next === undefined) {
      exhausted = true;
      break;
    }
    after = page.next;
  }
  return { found, scanned, exhausted };
}

/**
 * A job by its whole id, or by a unique start or end of it: pg's time-ordered ids share their
 * start, so a table shows their ends. The whole id is read directly; a part is looked for among
 * the newest `idSearchScan` jobs, never the whole queue.
 */
export async function findJob(context: RequestContext): Promise<FindResponse> {
  const part = (context.query.get('id') ?? '').trim().toLowerCase();
  if (part.length < MIN_ID_PART) {
    throw jobInvalid('id', `must hold at least ${MIN_ID_PART} characters of a job id`);
  }
  if (isUuid(part)) {
    const job = await context.options.driver.get(part, scope(context));
    if (job !== undefined) return { job: toSummary(job) };
  }
  const limit = context.options.idSearchScan;
  const { found, scanned, exhausted } = await scan(context, part, limit);
  const [only] = found;
  if (only !== undefined && found.length === 1) return { job: toSummary(only) };
  const shown = JSON.stringify(part);
  if (found.length === 0) {
    throw new ProblemError(404, {
      code: 'JOB_NOT_FOUND',
      message: exhausted
        ? `no job has an id that starts or ends with ${shown}`
        : `no job among the ${scanned} newest has an id that starts or ends with ${shown}`,
      fix: exhausted
        ? 'Check the id: the Jobs page lists every job this dashboard can see.'
        : `Give the whole id: a part of an id is looked for only among the ${limit} newest jobs (the dashboard's idSearchScan).`,
    });
  }
  const count =
    found.length > MAX_CANDIDATES ? `more than ${MAX_CANDIDATES} jobs` : `${found.length} jobs`;
  const candidates: JobSummary[] = found.slice(0, MAX_CANDIDATES).map(toSummary);
  throw new ProblemError(409, {
    code: 'ID_AMBIGUOUS',
    message: `${count} have an id that starts or ends with ${shown}`,
    fix: 'Give more of the id (or the whole id), or pick one of the candidates.',
    candidates,
  });
}
