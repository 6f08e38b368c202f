import {
  type ByIdOptions,
  effectiveState,
  type JobRecord,
  jobNotDeletable,
  jobNotFound,
  UNDELETABLE_STATES,
} from '@berth/core/driver';
import { deleteJob, type NatsContext } from './context.js';
import { readJob } from './docs.js';
import { ensureSent, tailSent } from './lifecycle-announce.js';
import { createMarkStore } from './marks.js';
import { answerOf } from './operator.js';
import { dropOwned } from './purge.js';

/** Times the delete re-reads and tries again when the record moved under it. */
const TRIES = 8;

/**
 * delete: the record read now (a change of another caller still in flight is aborted, as any
 * writer over the key does), then ONE conditional delete of its key at the revision read: the
 * decision every other writer (a claim, a cancel) races against. A claim that got there first
 * moved the revision, so the delete reads again and answers JOB_NOT_DELETABLE. What the row
 * owned (steps, spilled parts, its key's holder) goes after, as purge does: a crash between
 * leaves only garbage nothing points at, and a holder naming a missing row is free.
 */
export async function deleteById(
  context: NatsContext,
  id: string,
  options: ByIdOptions,
): Promise<JobRecord> {
  await context.mirror.syncOwn();
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const current = await readJob(context, id, 'abort');
    const job = current?.job;
    if (current === undefined || job === undefined) throw jobNotFound(id);
    if (options.tenantId !== undefined && job.tenantId !== options.tenantId) throw jobNotFound(id);
    if (UNDELETABLE_STATES.has(job.state)) {
      throw jobNotDeletable(id, effectiveState(job.state, job.runAt, context.clock.now()));
    }
    // Spilled content is read back before the delete drops it.
    const answer = await answerOf(context, job, context.clock.now());
    // A row an earlier driver version wrote with its mark goes only once the mark stands (purge).
    if (job.mark !== undefined) {
      await createMarkStore(context).advance(job.mark.name, job.mark.value);
    }
    // Once the record is gone nobody could publish a tail its writer left unsent: now, then.
    if (!tailSent(context, job, current.revision)) await ensureSent(context, job);
    if (await deleteJob(context, id, current.revision)) {
      await dropOwned(context, job);
      return answer;
    }
  }
  throw new Error(`job ${id} kept changing under ${TRIES} deletes`);
}
