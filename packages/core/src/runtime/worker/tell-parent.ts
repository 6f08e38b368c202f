import type { JobRecord } from '../../contract/records.js';
import { announceSettled } from '../flows/announce-settled.js';
import type { ChildOutcome } from '../flows/flow-types.js';
import { errorFields, type RuntimeLogger } from './logger.js';
import type { WorkerCore } from './worker-core.js';

/**
 * Wakes the parent of a child whose settle this worker just landed (a flow's child, or one a
 * `step.invoke` made). Not awaited by the settle, which stands whatever the announcement does (a
 * parent that misses one looks again at its next poll); a stopping worker waits for it, so a
 * deploy's stop does not cost the parent that poll.
 */
export function tellParent(
  worker: Pick<WorkerCore, 'driver' | 'hooks'>,
  logger: RuntimeLogger,
  job: JobRecord,
  state: ChildOutcome['state'],
): void {
  if (job.parentId === undefined) return;
  const { events } = worker.driver;
  const warn = (error: unknown) =>
    logger.warn('could not wake the parent job; it looks at its children again at its next poll', {
      parentId: job.parentId,
      ...errorFields(error),
    });
  worker.hooks.track(
    announceSettled((name, payload) => events.publish(name, payload), job, state, warn),
  );
}
