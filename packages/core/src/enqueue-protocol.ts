import type { EnqueueBackend, KeyedEnqueue } from './contract/enqueue.js';
import type { EnqueueResult, MarkPassed, ScreenedEnqueue } from './contract/records.js';
import { enqueueIndexDisagrees, idTaken, jobDuplicate } from './errors/refusals.js';

/** A second insert that misses its holder means the backend's key index and rows disagree. */
const MAX_INSERTS = 2;

/**
 * The enqueue protocol, run once here for every driver over its steps (contract/enqueue.ts):
 * insert; on a live key holder, the seam, then that holder re-read; one that settled in between
 * freed the key, so the insert is sent once more.
 */
export async function runEnqueue(
  backend: EnqueueBackend & { readonly name: string },
  request: ScreenedEnqueue,
): Promise<EnqueueResult | MarkPassed> {
  if (request.advanceMark !== undefined) {
    return backend.enqueueMarked(request, request.advanceMark);
  }
  for (let insert = 1; insert <= MAX_INSERTS; insert += 1) {
    const outcome = await backend.insert(request);
    if (outcome.kind === 'landed') return outcome.result;
    if (outcome.kind === 'id-taken') throw idTaken();
    if (outcome.kind === 'raced' || request.idempotencyKey === undefined) continue;
    await backend.hooks.afterEnqueueConflict?.();
    const keyed: KeyedEnqueue = { ...request, idempotencyKey: request.idempotencyKey };
    const holder = await backend.liveHolder(keyed, outcome.holderId);
    if (holder === undefined) continue;
    if (request.onConflict === 'error') throw jobDuplicate(request, holder.id);
    return holder;
  }
  throw enqueueIndexDisagrees(backend.name, request.name);
}
