import type { JobRecord } from '../../contract/records.js';
import { announceSettled } from '../flows/announce-settled.js';
import type { ChildOutcome } from '../flows/flow-types.js';
import { errorFields, type RuntimeLogger } from './logger.js';
import type { WorkerCore } from './worker-core.js';

/**
 * Wakes the parent of a child whose settle this worker just landed (a flow's child, or one a
 * `step.invoke` made). Not awaited: the settle stands whatever the announcement does, and a
 * parent that misses one looks again at its next poll.
 */
export function tellParent(
  worker: Pick<WorkerCore, 'driver'>,
  logger: RuntimeLogger,
  job: JobRecord,
  state: ChildOutcome['state'],
): void {
  if (job.parentId === undefined) return;
  const { events } = worker.driver;
  void announceSettled(
    (name, payload) => events.publish(name, payload),
    job,
    state,
    (error) =>
      logger.warn(
        'could not wake the parent job; it looks at its children again at its next poll',
        {
          parentId: job.parentId,
          ...errorFields(error),
        },
      ),
  );
}
