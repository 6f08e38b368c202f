import type { Json } from '../../contract/records.js';
import { stepInvalid } from '../../errors/refusals.js';
import { childFailed } from './child-outcome.js';
import {
  lookAtChildren,
  parkForChildren,
  type StepCore,
  type WatchedChild,
} from './child-steps.js';
import { childStep, flowEventName, MANIFEST_STEP } from './flow-names.js';
import type { ChildOutcome, ManifestChild } from './flow-types.js';

/** The manifest `client.enqueueFlow` stores on the parent's flow name before the enqueue. */
export interface FlowManifest {
  readonly kind: 'manifest';
  readonly children: readonly ManifestChild[];
}

/** The parent's children, from their memo, else from the flow's manifest (then memoized). */
async function readManifest(core: StepCore): Promise<readonly ManifestChild[]> {
  const { driver, job } = core;
  const memo = await core.stored(MANIFEST_STEP);
  if (memo?.status === 'completed') return memo.output as unknown as ManifestChild[];
  const found = await driver.events.find(flowEventName(job.id), {
    after: 0,
    match: { kind: 'manifest' },
  });
  if (found === undefined) {
    throw stepInvalid(
      `job ${job.id} (${job.name}) has no children: step.children() reads the children of a parent that client.enqueueFlow enqueued`,
      { jobId: job.id, runId: job.runId, step: MANIFEST_STEP },
    );
  }
  const { children } = found.payload as unknown as FlowManifest;
  const now = driver.clock.now();
  await core.write({
    runId: job.runId,
    name: MANIFEST_STEP,
    status: 'completed',
    output: children as unknown as Json,
    attempts: 1,
    startedAt: now,
    updatedAt: now,
  });
  return children;
}

/** The first child (in the flow's order) whose failure fails the parent. */
function failing(
  manifest: readonly ManifestChild[],
  outcomes: ReadonlyMap<string, ChildOutcome>,
): Exclude<ChildOutcome, { state: 'completed' }> | undefined {
  for (const child of manifest) {
    const outcome = outcomes.get(child.id);
    if (outcome !== undefined && outcome.state !== 'completed' && child.onFailure === 'fail') {
      return outcome;
    }
  }
  return undefined;
}

/**
 * `step.children()`: how every child of this flow parent settled, in the flow's order, once all
 * have; parks the run until then. A child whose policy is `fail` throws JOB_FAILED (non-retryable)
 * as soon as the parent sees it fail; `ignore` leaves a failed child out; `continue` keeps it.
 * Each child's outcome is memoized in a step the first time the parent sees it settled, so a
 * run that wakes again reads only the children still pending.
 */
export async function readChildren(
  core: StepCore,
  name?: string,
): Promise<readonly ChildOutcome[]> {
  const manifest = await readManifest(core);
  const outcomes = new Map<string, ChildOutcome>();
  const pending: WatchedChild[] = [];
  const now = core.driver.clock.now();
  for (const child of manifest) {
    const step = childStep(child.id);
    const memo = await core.stored(step);
    if (memo?.status === 'completed')
      outcomes.set(child.id, memo.output as unknown as ChildOutcome);
    else pending.push({ id: child.id, step, startedAt: memo?.startedAt ?? now });
  }
  let failed = failing(manifest, outcomes);
  if (failed === undefined && pending.length > 0) {
    const { settled, seen } = await lookAtChildren(core, pending);
    for (const [id, outcome] of settled) outcomes.set(id, outcome);
    failed = failing(manifest, outcomes);
    if (failed === undefined && outcomes.size < manifest.length) parkForChildren(core, seen);
  }
  if (failed !== undefined) throw childFailed(failed);
  const answer: ChildOutcome[] = [];
  for (const child of manifest) {
    const outcome = outcomes.get(child.id) as ChildOutcome;
    if (outcome.state !== 'completed' && child.onFailure === 'ignore') continue;
    if (name === undefined || outcome.name === name) answer.push(outcome);
  }
  return answer;
}
