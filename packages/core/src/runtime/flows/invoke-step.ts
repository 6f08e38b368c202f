import type { StepRecord } from '../../contract/steps.js';
import { screenJobDefinition, toEnqueueRequest } from '../client/enqueue-request.js';
import { announceDue } from '../due-hub.js';
import { outcomeJson } from './child-outcome.js';
import { answerOf, lookAtChildren, parkForChildren, type StepCore } from './child-steps.js';
import { screenDecidedOptions } from './decided-options.js';
import { flowEventName, invokedChildId } from './flow-names.js';

/** Options an invoke decides itself: the child's id, key and tenant are the parent's to give. */
const DECIDED = ['id', 'idempotencyKey', 'onConflict', 'tenantId', 'throttle', 'debounce'];

const invokeOptions = (given: unknown) =>
  screenDecidedOptions(
    'options',
    given,
    DECIDED,
    'is decided by step.invoke: the child takes its id from the step and its tenant from the parent',
  );

/**
 * `step.invoke(name, job, payload, options)`: enqueues the child once per run (its id derived
 * from the run and the step, so an attempt that runs again meets it, deduped), with this job as
 * its `parentId` and this job's tenant, then parks the run until it settles; answers its result,
 * or throws JOB_FAILED (non-retryable) when it settled failed, dead or cancelled.
 */
export async function invokeChild(
  core: StepCore,
  stored: StepRecord | undefined,
  call: {
    readonly name: string;
    readonly job: unknown;
    readonly payload: unknown;
    readonly options: unknown;
  },
): Promise<unknown> {
  const { driver, job: parent } = core;
  if (stored?.status === 'completed') return answerOf(stored.output);
  const id = invokedChildId(parent.runId, call.name);
  const now = driver.clock.now();
  const startedAt = stored?.startedAt ?? now;
  if (stored === undefined) {
    const definition = screenJobDefinition(call.job, 'job');
    const request = await toEnqueueRequest(
      driver.clock,
      definition,
      call.payload,
      invokeOptions(call.options),
    );
    await driver.enqueue({
      ...request,
      id,
      parentId: parent.id,
      ...(parent.tenantId === undefined ? {} : { tenantId: parent.tenantId }),
    });
    announceDue(driver, request.queue ?? definition.queue, request.runAt ?? now);
    await core.write({
      runId: parent.runId,
      name: call.name,
      status: 'waiting',
      attempts: 0,
      eventName: flowEventName(parent.id),
      startedAt,
      updatedAt: now,
    });
  }
  const { settled, seen } = await lookAtChildren(core, [{ id, step: call.name, startedAt }]);
  const outcome = settled.get(id);
  if (outcome !== undefined) return answerOf(outcomeJson(outcome));
  return parkForChildren(core, seen);
}
