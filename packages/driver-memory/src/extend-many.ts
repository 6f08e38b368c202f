import type { Fence } from '@berth/core/driver';
import { fenced } from './settle.js';
import { type Store, setState } from './store.js';

/**
 * Many lease renewals in one change, each fenced as `extend`, with one `now` for the batch;
 * answers per item, in order. A fence given twice renews to the same instant twice.
 */
export function extendMany(
  store: Store,
  items: readonly Fence[],
  visibilityTimeoutMs: number,
): readonly boolean[] {
  const now = store.clock.now();
  return items.map((fence) => {
    const row = fenced(store, fence);
    if (row === undefined) return false;
    row.visibleAt = now + visibilityTimeoutMs;
    row.updatedAt = now;
    // A lapsed lease found by a drain goes back among the live ones, as in `extend`.
    setState(store, row, 'running');
    return true;
  });
}
