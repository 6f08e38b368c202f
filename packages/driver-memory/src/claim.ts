import type { ClaimedJob, ClaimOutcome, JobRecord, ScreenedClaim } from '@berth/core';
import {
  clearLease,
  liveRows,
  type Row,
  type Store,
  setState,
  stateAt,
  toRecord,
} from './store.js';

/** What a claim writes into a row whose lease lapsed on its final attempt. */
const LEASE_LAPSED = {
  code: 'LEASE_LAPSED',
  message: 'the lease lapsed on the final attempt and no attempts remain',
} as const;

const lapsed = (row: Row, now: number): boolean =>
  row.state === 'running' && row.visibleAt !== undefined && row.visibleAt <= now;

/** Claim order: priority desc, then runAt asc, then insertion order. */
const claimOrder = (a: Row, b: Row): number =>
  b.priority - a.priority || a.runAt - b.runAt || a.seq - b.seq;

function bury(store: Store, row: Row, failed: boolean, now: number): JobRecord {
  setState(store, row, failed ? 'failed' : 'dead');
  clearLease(row);
  row.finishedAt = now;
  row.updatedAt = now;
  row.lastError = { ...LEASE_LAPSED };
  return toRecord(row, now);
}

function take(store: Store, row: Row, request: ScreenedClaim, now: number): ClaimedJob {
  // A suspended row coming back is a resume of the same attempt, not a new one.
  const resumed = row.state === 'suspended';
  if (!resumed) row.attempts += 1;
  setState(store, row, 'running');
  row.claim += 1;
  row.claimedBy = request.workerId;
  row.visibleAt = now + request.visibilityTimeoutMs;
  row.updatedAt = now;
  delete row.waitFor;
  return {
    ...toRecord(row, now),
    state: 'running',
    claimedBy: request.workerId,
    visibleAt: row.visibleAt,
    resumed,
  };
}

/**
 * One claim, one synchronous change: hands out up to `limit` claimable rows and, separately,
 * buries up to `limit` final-attempt lapsed leases, which are never handed out; with `names`,
 * rows of other names are left as they are.
 */
export function claim(store: Store, request: ScreenedClaim): ClaimOutcome {
  const now = store.clock.now();
  const dropped = new Set(request.dropExhausted);
  const names = request.names === undefined ? undefined : new Set(request.names);
  const candidates: Row[] = [];
  for (const row of liveRows(store, request.queues)) {
    if (names !== undefined && !names.has(row.name)) continue;
    if (stateAt(row, now) === 'ready' || lapsed(row, now)) candidates.push(row);
  }
  candidates.sort(claimOrder);
  const claimed: ClaimedJob[] = [];
  const buried: JobRecord[] = [];
  for (const row of candidates) {
    if (claimed.length >= request.limit && buried.length >= request.limit) break;
    if (lapsed(row, now) && row.attempts >= row.maxAttempts) {
      if (buried.length < request.limit) buried.push(bury(store, row, dropped.has(row.name), now));
    } else if (claimed.length < request.limit) {
      claimed.push(take(store, row, request, now));
    }
  }
  return { claimed, buried };
}
