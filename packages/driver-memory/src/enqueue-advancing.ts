import type { EnqueueResult, MarkAdvance, MarkPassed, ScreenedEnqueue } from '@berth/core/driver';
import { enqueueMany } from './enqueue.js';
import { advanceMark, getMark } from './marks.js';
import type { Store } from './store.js';

/**
 * `enqueue` with `advanceMark`, in ONE synchronous change: the mark is read, the insert decided
 * (the id's or the key's holder looked up in the same change, so there is no seam) and the mark
 * raised, with nothing in between. A refusal throws before either is written.
 */
export function enqueueAdvancing(
  store: Store,
  request: ScreenedEnqueue,
  mark: MarkAdvance,
): EnqueueResult | MarkPassed {
  const current = getMark(store, mark.name);
  if (current !== undefined && current >= mark.value) return { markPassed: true };
  // A batch of one is the insert as one synchronous change.
  const [result] = enqueueMany(store, [request]);
  if (result === undefined) throw new Error('the enqueue answered no job');
  advanceMark(store, mark.name, mark.value);
  return result;
}
