import { createHash } from 'node:crypto';

/**
 * The stored event a flow parent's children announce their settles on: one name per parent
 * (its job id). A hint that wakes the parked parent; the parent reads each child itself.
 */
export const flowEventName = (parentId: string): string => `berth.flow:${parentId}`;

/** Step names core writes for flows start with this; a handler's own step names may not. */
export const RESERVED_STEP_PREFIX = 'berth.';

/** The step that memoizes a flow parent's list of children (read once from its manifest). */
export const MANIFEST_STEP = 'berth.flow';

/** The step that memoizes how child `childId` of a flow parent settled. */
export const childStep = (childId: string): string => `berth.child ${childId}`;

/**
 * The id of the child `step.invoke(step)` makes in run `runId`: the same on every attempt of the
 * run, so a parent that runs again meets its child (the enqueue answers it, deduped) instead of
 * making another. A version 8 (custom) uuid over the SHA-256 of the two.
 */
export function invokedChildId(runId: string, step: string): string {
  const hex = createHash('sha256').update(`${runId}\n${step}`).digest('hex');
  const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
