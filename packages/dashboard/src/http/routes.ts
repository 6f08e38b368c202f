import {
  cancelBackfill,
  getBackfill,
  listBackfills,
  pauseBackfill,
  resumeBackfill,
} from '../api/backfills.js';
import { bulkJobs } from '../api/bulk-actions.js';
import { deadLetters, purgeGroup, retryGroup } from '../api/dead-letters.js';
import { enqueueJob } from '../api/enqueue-job.js';
import { events } from '../api/events.js';
import { findJob } from '../api/find.js';
import { cancelJob, deleteJob, promoteJob, retryJob } from '../api/job-actions.js';
import { getJobLogs } from '../api/job-logs.js';
import { getJob, listJobs } from '../api/jobs.js';
import { lifecycle, lifecycleEnd } from '../api/lifecycle.js';
import { discardOutbox, outboxView, retryOutbox } from '../api/outbox.js';
import { overview } from '../api/overview.js';
import { searchPayloads } from '../api/payload-search.js';
import { pauseQueue, resumeQueue } from '../api/queue-pauses.js';
import { schedules } from '../api/schedules.js';
import {
  pauseStoredSchedule,
  removeStoredSchedule,
  resumeStoredSchedule,
} from '../api/stored-schedules.js';
import type { Route } from './context.js';

const ID = '([^/]+)';

/** Every API route, below `<basePath>/api`. Reads are GET; every action is a POST. */
export const ROUTES: readonly Route[] = [
  { method: 'GET', pattern: /^\/overview$/, run: overview },
  { method: 'GET', pattern: /^\/jobs$/, run: listJobs },
  { method: 'GET', pattern: new RegExp(`^/jobs/${ID}$`), run: getJob },
  { method: 'GET', pattern: new RegExp(`^/jobs/${ID}/logs$`), run: getJobLogs },
  { method: 'GET', pattern: /^\/find$/, run: findJob },
  { method: 'POST', pattern: /^\/jobs$/, run: enqueueJob },
  { method: 'GET', pattern: /^\/payload-search$/, run: searchPayloads },
  { method: 'POST', pattern: /^\/jobs\/bulk$/, run: bulkJobs },
  { method: 'POST', pattern: new RegExp(`^/jobs/${ID}/retry$`), run: retryJob },
  { method: 'POST', pattern: new RegExp(`^/jobs/${ID}/cancel$`), run: cancelJob },
  { method: 'POST', pattern: new RegExp(`^/jobs/${ID}/promote$`), run: promoteJob },
  { method: 'POST', pattern: new RegExp(`^/jobs/${ID}/delete$`), run: deleteJob },
  { method: 'GET', pattern: /^\/dead-letters$/, run: deadLetters },
  { method: 'POST', pattern: /^\/dead-letters\/retry$/, run: retryGroup },
  { method: 'POST', pattern: /^\/dead-letters\/purge$/, run: purgeGroup },
  { method: 'POST', pattern: /^\/queues\/pause$/, run: pauseQueue },
  { method: 'POST', pattern: /^\/queues\/resume$/, run: resumeQueue },
  { method: 'GET', pattern: /^\/schedules$/, run: schedules },
  { method: 'POST', pattern: /^\/schedules\/pause$/, run: pauseStoredSchedule },
  { method: 'POST', pattern: /^\/schedules\/resume$/, run: resumeStoredSchedule },
  { method: 'POST', pattern: /^\/schedules\/remove$/, run: removeStoredSchedule },
  { method: 'GET', pattern: /^\/events$/, run: events },
  { method: 'GET', pattern: /^\/lifecycle$/, run: lifecycle },
  { method: 'GET', pattern: /^\/lifecycle\/end$/, run: lifecycleEnd },
  { method: 'GET', pattern: /^\/backfills$/, run: listBackfills },
  { method: 'GET', pattern: new RegExp(`^/backfills/${ID}$`), run: getBackfill },
  { method: 'POST', pattern: new RegExp(`^/backfills/${ID}/pause$`), run: pauseBackfill },
  { method: 'POST', pattern: new RegExp(`^/backfills/${ID}/resume$`), run: resumeBackfill },
  { method: 'POST', pattern: new RegExp(`^/backfills/${ID}/cancel$`), run: cancelBackfill },
  { method: 'GET', pattern: /^\/outbox$/, run: outboxView },
  { method: 'POST', pattern: /^\/outbox\/retry$/, run: retryOutbox },
  { method: 'POST', pattern: /^\/outbox\/discard$/, run: discardOutbox },
];

export interface RouteMatch {
  readonly route: Route;
  readonly params: readonly string[];
}

/** The route for a path, and whether the path exists under another method. */
export function matchRoute(
  method: string,
  path: string,
): { match?: RouteMatch; otherMethod: boolean } {
  let otherMethod = false;
  for (const route of ROUTES) {
    const found = route.pattern.exec(path);
    if (found === null) continue;
    const wanted = method === 'HEAD' ? 'GET' : method;
    if (route.method !== wanted) {
      otherMethod = true;
      continue;
    }
    return { match: { route, params: found.slice(1).map(decodeSegment) }, otherMethod };
  }
  return { otherMethod };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
