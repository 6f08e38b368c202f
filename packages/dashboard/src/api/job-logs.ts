import { MAX_LOG_PAGE } from '@berth/core';
import type { JobLogsResponse } from '../api-types.js';
import { idParam, type RequestContext, scope } from '../http/context.js';

/**
 * The job page's log: every kept line, oldest first (a job keeps at most MAX_JOB_LOG_LINES, so
 * a couple of driver calls), and how many were dropped past the cap. Scoped like the job itself:
 * another tenant's job answers JOB_NOT_FOUND.
 */
export async function getJobLogs(context: RequestContext): Promise<JobLogsResponse> {
  const { driver } = context.options;
  const id = idParam(context);
  const lines: JobLogsResponse['lines'][number][] = [];
  let after = 0;
  for (;;) {
    const page = await driver.logs.list(id, { ...scope(context), after, limit: MAX_LOG_PAGE });
    lines.push(...page.lines);
    if (page.next === undefined) return { lines, dropped: page.dropped };
    after = page.next;
  }
}
