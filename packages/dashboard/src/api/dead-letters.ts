import { type Driver, isBerthError, type JobRecord, jobInvalid } from '@berth/core';
import type { DeadLettersResponse, GroupActionResponse, GroupActionResult } from '../api-types.js';
import { type RequestContext, scope } from '../http/context.js';
import { groupDeadLetters, groupKey, scanDeadLetters } from './dead-letter-groups.js';

/** Dead letters of one queue (or all) grouped by cause, from the newest `deadLetterScan`. */
export async function deadLetters(context: RequestContext): Promise<DeadLettersResponse> {
  const queue = context.query.get('queue') || undefined;
  const limit = context.options.deadLetterScan;
  const scan = await scanDeadLetters(context.options.driver, {
    queue,
    tenantId: context.tenantId,
    limit,
  });
  return {
    queue: queue ?? null,
    groups: groupDeadLetters(scan.jobs),
    scanned: scan.jobs.length,
    limit,
    capped: scan.capped,
  };
}

interface GroupRequest {
  readonly key: string;
  readonly ids: readonly string[];
}

async function groupRequest(context: RequestContext): Promise<GroupRequest> {
  const body = (await context.body()) as Partial<Record<'key' | 'ids', unknown>> | null;
  const key = body?.key;
  const ids = body?.ids;
  if (typeof key !== 'string' || key.length === 0) throw jobInvalid('key', 'must name a group');
  if (
    !Array.isArray(ids) ||
    ids.length === 0 ||
    ids.length > context.options.deadLetterScan ||
    !ids.every((id) => typeof id === 'string')
  ) {
    throw jobInvalid('ids', `must list 1 to ${context.options.deadLetterScan} job ids`);
  }
  return { key, ids };
}

const refused = (id: string, error: unknown): GroupActionResult => {
  if (!isBerthError(error)) throw error;
  return { id, outcome: 'refused', code: error.code, message: error.detail };
};

/**
 * Acts on each job the operator saw in the group, one at a time, and only while it is still a
 * dead letter of that group: one that was retried, purged or re-failed differently since is
 * skipped and reported, never touched.
 */
async function eachInGroup(
  context: RequestContext,
  act: (driver: Driver, job: JobRecord) => Promise<GroupActionResult>,
): Promise<GroupActionResponse> {
  const { driver } = context.options;
  const { key, ids } = await groupRequest(context);
  const results: GroupActionResult[] = [];
  for (const id of new Set(ids)) {
    try {
      const job = await driver.get(id, scope(context));
      if (job === undefined) {
        results.push({ id, outcome: 'skipped', message: 'no such job' });
      } else if (job.state !== 'dead') {
        results.push({ id, outcome: 'skipped', message: `it is ${job.state} now` });
      } else if (groupKey(job) !== key) {
        results.push({ id, outcome: 'skipped', message: 'its error no longer matches this group' });
      } else {
        results.push(await act(driver, job));
      }
    } catch (error) {
      results.push(refused(id, error));
    }
  }
  return { results };
}

export const retryGroup = (context: RequestContext): Promise<GroupActionResponse> =>
  eachInGroup(context, async (driver, job) => {
    try {
      await driver.requeue(job.id, scope(context));
      return { id: job.id, outcome: 'requeued' };
    } catch (error) {
      return refused(job.id, error);
    }
  });

export const purgeGroup = (context: RequestContext): Promise<GroupActionResponse> =>
  eachInGroup(context, async (driver, job) => {
    // `ids` and `limit: 1` keep each call to this one row, so the group is purged in bounded
    // calls, one per job; `olderThan` just past now admits it.
    const olderThan = driver.clock.now() + 1;
    const removed = await driver.purge({ states: ['dead'], olderThan, ids: [job.id], limit: 1 });
    return removed === 1
      ? { id: job.id, outcome: 'purged' }
      : { id: job.id, outcome: 'skipped', message: 'it was no longer dead' };
  });
