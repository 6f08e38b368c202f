import {
  BerthError,
  DEFAULT_LIFECYCLE_PAGE,
  type LifecycleReadRequest,
  MAX_LIFECYCLE_PAGE,
} from '@berth/core';
import { queryText, type RequestContext } from '../http/context.js';
import type { LifecycleEndResponse, LifecycleResponse } from '../lifecycle-types.js';

/**
 * The page size: whole digits only, so `1.5` or `0x10` is refused, not read as a number. Its range
 * (1..MAX_LIFECYCLE_PAGE) is the driver's screen, which refuses it as JOB_PAGE_INVALID too.
 */
function pageSize(query: URLSearchParams): number {
  const given = queryText(query, 'limit');
  if (given === undefined) return DEFAULT_LIFECYCLE_PAGE;
  if (!/^[0-9]{1,4}$/.test(given)) {
    throw new BerthError({
      code: 'JOB_PAGE_INVALID',
      detail: `limit ${JSON.stringify(given)} is not a whole number from 1 to ${MAX_LIFECYCLE_PAGE} (MAX_LIFECYCLE_PAGE)`,
      meta: { reason: 'limit', received: given, maxPage: MAX_LIFECYCLE_PAGE },
    });
  }
  return Number(given);
}

/**
 * One page of the lifecycle stream after `after` (from the oldest kept event when absent). The
 * driver screens the rest: a position it never answered is JOB_PAGE_INVALID, a job id that is not
 * one JOB_INVALID. `next` and `caughtUp` pass through, so the page tails by reading on from `next`.
 */
export async function lifecycle(context: RequestContext): Promise<LifecycleResponse> {
  const { query } = context;
  // A scoped dashboard ignores the tenant filter: the scope is the only tenant it may see.
  const tenantId = context.tenantId ?? queryText(query, 'tenant');
  const optional = {
    after: queryText(query, 'after'),
    queue: queryText(query, 'queue'),
    name: queryText(query, 'name'),
    jobId: queryText(query, 'job'),
    tenantId,
  };
  const request: LifecycleReadRequest = { limit: pageSize(query) };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) Object.assign(request, { [key]: value });
  }
  const page = await context.options.driver.lifecycle.read(request);
  return {
    events: page.events,
    ...(page.next === undefined ? {} : { next: page.next }),
    caughtUp: page.caughtUp,
  };
}

/**
 * The newest event's position now: where a live view starts so it shows only what happens next.
 * One position of the whole stream, the same for every tenant (a read from it is what is scoped).
 */
export async function lifecycleEnd(context: RequestContext): Promise<LifecycleEndResponse> {
  return { end: (await context.options.driver.lifecycle.end()) ?? null };
}
