import {
  type AckItem,
  type AckOptions,
  type Fence,
  matchesEvent,
  type NackItem,
  type NackOptions,
  nackOutcome,
  type SuspendOptions,
} from '@berth/core/driver';
import { endAttempt } from './attempts.js';
import { tell } from './lifecycle.js';
import { clearLease, type Row, type Store, setState } from './store.js';
import { notify } from './wake.js';

/**
 * The row when the fence holds: running, this worker, this claim. A lapsed lease nobody
 * re-claimed still holds; a re-claim, a cancel or a settle ends it.
 */
export function fenced(store: Store, fence: Fence): Row | undefined {
  const row = store.rows.get(fence.jobId);
  if (row === undefined || row.state !== 'running') return undefined;
  return row.claimedBy === fence.workerId && row.claim === fence.claim ? row : undefined;
}

function ackRow(store: Store, fence: Fence, options: AckOptions, now: number): boolean {
  const row = fenced(store, fence);
  if (row === undefined) return false;
  endAttempt(row, 'completed', now);
  clearLease(row);
  row.finishedAt = now;
  row.updatedAt = now;
  // The screen handed over a fresh copy of the result: nothing else holds it.
  if (options.result !== undefined) row.result = options.result;
  setState(store, row, 'completed');
  tell(store.lifecycle, row, 'completed', now);
  return true;
}

/** Settles one nack; a row sent back to work adds its queue to `woke`. */
function nackRow(
  store: Store,
  fence: Fence,
  options: NackOptions,
  now: number,
  woke: Set<string>,
): boolean {
  const row = fenced(store, fence);
  if (row === undefined) return false;
  endAttempt(row, nackOutcome(row, options), now, options.error);
  clearLease(row);
  // A fresh object from the screen, as the result above.
  row.lastError = options.error;
  row.updatedAt = now;
  if (options.cancel === true) {
    row.finishedAt = now;
    setState(store, row, 'cancelled');
    tell(store.lifecycle, row, 'cancelled', now);
    return true;
  }
  if (options.final !== true && row.attempts < row.maxAttempts) {
    if (options.retryAt !== undefined && options.retryAt > now) {
      row.runAt = options.retryAt;
      setState(store, row, 'delayed');
    } else {
      row.runAt = now;
      setState(store, row, 'ready');
    }
    woke.add(row.queue);
    tell(store.lifecycle, row, 'retried', now);
    return true;
  }
  row.finishedAt = now;
  const settled = options.deadLetter === false ? 'failed' : 'dead';
  setState(store, row, settled);
  tell(store.lifecycle, row, settled, now);
  return true;
}

export function ack(store: Store, fence: Fence, options: AckOptions): boolean {
  return ackRow(store, fence, options, store.clock.now());
}

export function nack(store: Store, fence: Fence, options: NackOptions): boolean {
  const woke = new Set<string>();
  const landed = nackRow(store, fence, options, store.clock.now(), woke);
  notify(store, woke);
  return landed;
}

/** Many acks in one change, each exactly as `ack`; answers landed per item, in order. */
export function ackMany(store: Store, items: readonly AckItem[]): readonly boolean[] {
  const now = store.clock.now();
  return items.map((item) => ackRow(store, item.fence, item, now));
}

/** Many nacks in one change; one wake per queue the batch sent work back to. */
export function nackMany(store: Store, items: readonly NackItem[]): readonly boolean[] {
  const now = store.clock.now();
  const woke = new Set<string>();
  const landed = items.map((item) => nackRow(store, item.fence, item, now, woke));
  notify(store, woke);
  return landed;
}

/**
 * A `waitFor` event published since `eventsSince`, not expired, matching `eventsMatch` and not
 * excluded: the wait is over already.
 */
function eventAlreadyPublished(store: Store, options: SuspendOptions, now: number): boolean {
  const { waitFor, eventsSince, eventsMatch, eventsExclude } = options;
  if (waitFor === undefined || eventsSince === undefined) return false;
  for (const { record } of store.events.inOrder(waitFor)) {
    store.meter.visits += 1;
    if (record.publishedAt < eventsSince || record.expiresAt <= now) continue;
    if (eventsExclude?.includes(record.id) === true) continue;
    if (matchesEvent(record.payload, eventsMatch)) return true;
  }
  return false;
}

export function suspend(store: Store, fence: Fence, options: SuspendOptions): boolean {
  const row = fenced(store, fence);
  if (row === undefined) return false;
  const now = store.clock.now();
  endAttempt(row, 'suspended', now);
  clearLease(row);
  row.runAt = eventAlreadyPublished(store, options, now) ? now : options.until;
  row.updatedAt = now;
  if (options.waitFor === undefined) row.waitFor = undefined;
  else row.waitFor = options.waitFor;
  setState(store, row, 'suspended');
  tell(store.lifecycle, row, 'suspended', now);
  if (row.runAt <= now) notify(store, [row.queue]);
  return true;
}

export function extend(store: Store, fence: Fence, visibilityTimeoutMs: number): boolean {
  const row = fenced(store, fence);
  if (row === undefined) return false;
  const now = store.clock.now();
  row.visibleAt = now + visibilityTimeoutMs;
  row.updatedAt = now;
  // A lapsed lease found by a drain goes back among the live ones.
  setState(store, row, 'running');
  return true;
}
