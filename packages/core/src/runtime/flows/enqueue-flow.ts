import type { Driver } from '../../contract/driver.js';
import { DEFAULT_EVENT_TTL_MS } from '../../contract/limits.js';
import type { EnqueueRequest, Json } from '../../contract/records.js';
import { jobInvalid } from '../../errors/refusals.js';
import { timeOrderedUuid } from '../../ids.js';
import { screenArray, screening, screenObject } from '../../screen/values.js';
import { toEnqueueRequest } from '../client/enqueue-request.js';
import { announceDue } from '../due-hub.js';
import type { AnyJobContract } from '../jobs/job-types.js';
import type { FlowManifest } from './children-step.js';
import { screenDecidedOptions } from './decided-options.js';
import { flowEventName, invokedChildId } from './flow-names.js';
import type { ChildFailurePolicy, FlowEnqueued, ManifestChild } from './flow-types.js';
import { MAX_FLOW_CHILDREN } from './flow-types.js';

const POLICIES: readonly ChildFailurePolicy[] = ['fail', 'ignore', 'continue'];

/** Options that would give a flow's job another identity than the flow gives it. */
const PARENT_REFUSED = ['idempotencyKey', 'onConflict', 'throttle', 'debounce'];
const CHILD_REFUSED = ['id', 'tenantId', ...PARENT_REFUSED];

const screenFlowOptions = (field: string, given: unknown, refused: readonly string[]) =>
  screenDecidedOptions(
    field,
    given,
    refused,
    'is not for a flow: the flow gives its jobs their ids (pass the parent an id to make a retried enqueueFlow answer the same flow) and the parent its tenant to every child',
  );

const screenFlow = screening('flow', (flow: unknown) => {
  const given = screenObject('flow', flow);
  const children = screenArray('flow.children', given.children, MAX_FLOW_CHILDREN);
  if (children.length === 0) throw jobInvalid('flow.children', 'must name at least one child');
  return {
    job: given.job,
    payload: given.payload,
    options: screenFlowOptions('flow.options', given.options, PARENT_REFUSED),
    children: children.map((item, index) => {
      const field = `flow.children[${index}]`;
      const child = screenObject(field, item);
      const onFailure = child.onFailure ?? 'fail';
      if (!POLICIES.includes(onFailure as ChildFailurePolicy)) {
        throw jobInvalid(`${field}.onFailure`, 'must be "fail", "ignore" or "continue"');
      }
      return {
        job: child.job,
        payload: child.payload,
        options: screenFlowOptions(`${field}.options`, child.options, CHILD_REFUSED),
        onFailure: onFailure as ChildFailurePolicy,
      };
    }),
  };
});

/**
 * `client.enqueueFlow`: the parent and its children in ONE `enqueueMany` (all or nothing, across
 * queues), each child with the parent's id as its `parentId` and the parent's tenant. Before it,
 * the flow's manifest (each child's id, job name and failure policy) is stored as an event on the
 * parent's flow name, where the parent's `step.children()` reads it; a manifest whose enqueue then
 * failed names no job and expires. Child ids derive from the parent's id, so an enqueueFlow
 * retried with the same parent `id` answers the same jobs, deduped.
 */
export async function enqueueFlow(
  driver: Driver,
  check: (job: unknown, field: string) => AnyJobContract,
  flow: unknown,
): Promise<FlowEnqueued> {
  const screened = screenFlow(flow);
  const { clock } = driver;
  const parentJob = check(screened.job, 'flow.job');
  const parent = await toEnqueueRequest(clock, parentJob, screened.payload, screened.options);
  const parentId = parent.id ?? timeOrderedUuid(clock.now());
  const manifest: ManifestChild[] = [];
  const requests: EnqueueRequest[] = [];
  for (const [index, child] of screened.children.entries()) {
    const job = check(child.job, `flow.children[${index}].job`);
    const request = await toEnqueueRequest(clock, job, child.payload, child.options);
    const id = invokedChildId(parentId, `child ${index}`);
    requests.push({
      ...request,
      id,
      parentId,
      ...(parent.tenantId === undefined ? {} : { tenantId: parent.tenantId }),
    });
    manifest.push({ id, name: job.name, onFailure: child.onFailure });
  }
  requests.push({ ...parent, id: parentId });
  const now = clock.now();
  const body: FlowManifest = { kind: 'manifest', children: manifest };
  // The parent reads the manifest on its first run, which a delayed parent starts later.
  await driver.events.publish(flowEventName(parentId), body as unknown as Json, {
    ttl: DEFAULT_EVENT_TTL_MS + Math.max(0, (parent.runAt ?? now) - now),
  });
  const results = await driver.enqueueMany(requests);
  for (const [index, result] of results.entries()) {
    const request = requests[index];
    if (request !== undefined && !result.deduped) {
      announceDue(driver, request.queue ?? parentJob.queue, request.runAt ?? now);
    }
  }
  const made = results.map(({ id, runId }) => ({ id, runId }));
  return { parent: made[made.length - 1] as FlowEnqueued['parent'], children: made.slice(0, -1) };
}
