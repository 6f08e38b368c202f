import { type Driver, type JobRecord, MAX_JOB_PAGE } from '@berth/core';
import type { DeadLetterGroup } from '../api-types.js';
import { normaliseMessage } from './normalise-message.js';

export interface DeadLetterScan {
  readonly jobs: readonly JobRecord[];
  /** More dead jobs exist beyond the ones read. */
  readonly capped: boolean;
}

/** The newest `limit` dead jobs in scope, read a keyset page at a time: never the whole backlog. */
export async function scanDeadLetters(
  driver: Driver,
  scope: { queue: string | undefined; tenantId: string | undefined; limit: number },
): Promise<DeadLetterScan> {
  const jobs: JobRecord[] = [];
  let after: string | undefined;
  while (jobs.length < scope.limit) {
    const page = await driver.list({
      state: 'dead',
      limit: Math.min(MAX_JOB_PAGE, scope.limit - jobs.length),
      ...(scope.queue === undefined ? {} : { queue: scope.queue }),
      ...(scope.tenantId === undefined ? {} : { tenantId: scope.tenantId }),
      ...(after === undefined ? {} : { after }),
    });
    jobs.push(...page.jobs);
    if (page.next === undefined) return { jobs, capped: false };
    after = page.next;
  }
  return { jobs, capped: true };
}

/** A group is a queue, an error code and a normalised message; the key names all three. */
export function groupKey(job: JobRecord): string {
  const code = job.lastError?.code ?? null;
  const message = normaliseMessage(job.lastError?.message ?? '');
  return Buffer.from(JSON.stringify([job.queue, code, message]), 'utf8').toString('base64url');
}

/** Groups newest first within, biggest group first (then the most recently seen). */
export function groupDeadLetters(jobs: readonly JobRecord[]): DeadLetterGroup[] {
  const groups = new Map<string, { group: DeadLetterGroup; ids: string[] }>();
  for (const job of jobs) {
    const key = groupKey(job);
    const seen = job.finishedAt ?? job.updatedAt;
    const found = groups.get(key);
    if (found !== undefined) {
      found.ids.push(job.id);
      found.group = {
        ...found.group,
        count: found.group.count + 1,
        firstSeen: Math.min(found.group.firstSeen, seen),
        lastSeen: Math.max(found.group.lastSeen, seen),
      };
      continue;
    }
    // The list is newest first, so the first job of a group is its most recent: the sample.
    const error = job.lastError;
    groups.set(key, {
      ids: [job.id],
      group: {
        key,
        queue: job.queue,
        code: error?.code ?? null,
        message: normaliseMessage(error?.message ?? ''),
        count: 1,
        firstSeen: seen,
        lastSeen: seen,
        sample: {
          id: job.id,
          name: job.name,
          payload: job.payload,
          message: error?.message ?? '',
          ...(error?.stack === undefined ? {} : { stack: error.stack }),
        },
        ids: [],
      },
    });
  }
  return [...groups.values()]
    .map(({ group, ids }) => ({ ...group, ids }))
    .sort((a, b) => b.count - a.count || b.lastSeen - a.lastSeen);
}
