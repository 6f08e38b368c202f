import type { ClaimedJob, ClaimOutcome, JobRecord, ScreenedClaim } from '@berth/core/driver';
import { endAttempt } from './attempts.js';
import type { RowHeap } from './heap.js';
import { tell } from './lifecycle.js';
import { claimsBefore, drain, type Lane, lanesOf, syncClock } from './placement.js';
import { toClaimed, toRecord } from './record.js';
import { clearLease, type Row, type Store, setState } from './store.js';

/** What a claim writes into a row whose lease lapsed on its final attempt. */
const LEASE_LAPSED = {
  code: 'LEASE_LAPSED',
  message: 'the lease lapsed on the final attempt and no attempts remain',
} as const;

function bury(store: Store, row: Row, failed: boolean, now: number): JobRecord {
  tell(store.lifecycle, row, 'stalled', now);
  endAttempt(row, 'lapsed', now, LEASE_LAPSED);
  clearLease(row);
  row.finishedAt = now;
  row.updatedAt = now;
  row.lastError = { ...LEASE_LAPSED };
  const settled = failed ? 'failed' : 'dead';
  setState(store, row, settled);
  tell(store.lifecycle, row, settled, now);
  return toRecord(row, now);
}

function take(store: Store, row: Row, request: ScreenedClaim, now: number): ClaimedJob {
  // A suspended row coming back is a resume of the same attempt, not a new one.
  const resumed = row.state === 'suspended';
  // A running row is a lapsed lease taken again: its attempt ended when the lease ran out.
  if (row.state === 'running') {
    tell(store.lifecycle, row, 'stalled', now);
    endAttempt(row, 'lapsed', now);
  }
  if (!resumed) row.attempts += 1;
  row.claimedAt = now;
  row.claim += 1;
  row.claimedBy = request.workerId;
  row.visibleAt = now + request.visibilityTimeoutMs;
  row.updatedAt = now;
  row.waitFor = undefined;
  setState(store, row, 'running');
  tell(store.lifecycle, row, 'active', now);
  return toClaimed(row, now, resumed);
}

/** Claim order between the top of `heap` and the best so far. */
function better(store: Store, heap: RowHeap, best: Row | undefined): Row | undefined {
  const top = heap.peek();
  if (top === undefined) return best;
  if (best === undefined) return top;
  store.meter.visits += 1;
  return claimsBefore(top, best) ? top : best;
}

/** The first claimable row of `lanes`: a ready row or a lapsed lease with attempts left. */
function firstClaimable(store: Store, lanes: readonly Lane[]): Row | undefined {
  let best: Row | undefined;
  for (const lane of lanes) best = better(store, lane.lapsed, better(store, lane.ready, best));
  return best;
}

/** The first lapsed lease of `lanes` with no attempts left. */
function firstExhausted(store: Store, lanes: readonly Lane[]): Row | undefined {
  let best: Row | undefined;
  for (const lane of lanes) best = better(store, lane.exhausted, best);
  return best;
}

/**
 * One claim, one synchronous change: hands out up to `limit` claimable rows and, separately,
 * buries up to `limit` final-attempt lapsed leases, which are never handed out; with `names`,
 * only lanes of those job names are read, so rows of other names are left as they are. Each lane of the
 * claimed queues keeps its claimable rows in claim order, so a claim reads the lanes' tops:
 * O(limit × lanes + limit × log n), plus each due row or lapsed lease moved once. Queues that
 * are paused are left out first (one lookup each).
 */
export function claim(store: Store, request: ScreenedClaim): ClaimOutcome {
  const now = store.clock.now();
  syncClock(store.placement, now);
  // A paused queue is not read at all: none of its rows is claimed or buried.
  const queues = request.queues.filter((queue) => !store.paused.has(queue));
  const lanes = lanesOf(store.placement, queues, request.names);
  for (const lane of lanes) drain(lane, now);
  const claimed: ClaimedJob[] = [];
  while (claimed.length < request.limit) {
    const row = firstClaimable(store, lanes);
    if (row === undefined) break;
    claimed.push(take(store, row, request, now));
  }
  const buried: JobRecord[] = [];
  while (buried.length < request.limit) {
    const row = firstExhausted(store, lanes);
    if (row === undefined) break;
    buried.push(bury(store, row, request.dropExhausted.includes(row.name), now));
  }
  return { claimed, buried };
}
