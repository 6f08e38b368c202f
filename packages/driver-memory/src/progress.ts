import type { Fence, Json } from '@berth/core/driver';
import { tell } from './lifecycle.js';
import { copyJson } from './record.js';
import { fenced } from './settle.js';
import type { Store } from './store.js';

/**
 * A fenced progress write: the value and `updatedAt` only. No index orders by either, so the
 * row stays where it sits (state, lease and claim order untouched).
 */
export function progress(store: Store, fence: Fence, value: Json): boolean {
  const row = fenced(store, fence);
  if (row === undefined) return false;
  const now = store.clock.now();
  row.progress = copyJson(value);
  row.updatedAt = now;
  tell(store.lifecycle, row, 'progress', now);
  return true;
}
