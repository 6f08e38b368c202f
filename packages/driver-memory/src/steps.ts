import { type Fence, leaseLost, type StepRecord, stepInvalid } from '@berth/core/driver';
import { copyError, copyJson } from './record.js';
import { fenced } from './settle.js';
import type { Store } from './store.js';

/** A fresh copy of a step, optional fields absent when unset. */
function copyStep(step: StepRecord): StepRecord {
  return {
    runId: step.runId,
    name: step.name,
    status: step.status,
    ...(step.output === undefined ? {} : { output: copyJson(step.output) }),
    ...(step.error === undefined ? {} : { error: copyError(step.error) }),
    attempts: step.attempts,
    ...(step.wakeAt === undefined ? {} : { wakeAt: step.wakeAt }),
    ...(step.eventName === undefined ? {} : { eventName: step.eventName }),
    ...(step.eventId === undefined ? {} : { eventId: step.eventId }),
    startedAt: step.startedAt,
    updatedAt: step.updatedAt,
  };
}

export function getStep(store: Store, runId: string, name: string): StepRecord | undefined {
  const step = store.steps.get(runId)?.get(name);
  return step === undefined ? undefined : copyStep(step);
}

/**
 * Upserts by `(runId, name)` in one change that checks the fence first. A Map keeps a key's
 * first-insertion place when it is set again, which is exactly write order.
 */
export function putStep(store: Store, record: StepRecord, fence: Fence): void {
  const row = fenced(store, fence);
  if (row === undefined) throw leaseLost(fence);
  if (row.runId !== record.runId) {
    throw stepInvalid(
      `step ${JSON.stringify(record.name)} names run ${record.runId}, not run ${row.runId} of job ${row.id}`,
      { jobId: fence.jobId, runId: record.runId, step: record.name },
    );
  }
  let steps = store.steps.get(record.runId);
  if (steps === undefined) {
    steps = new Map();
    store.steps.set(record.runId, steps);
  }
  steps.set(record.name, copyStep(record));
}

export function listSteps(store: Store, runId: string): readonly StepRecord[] {
  return [...(store.steps.get(runId)?.values() ?? [])].map(copyStep);
}
