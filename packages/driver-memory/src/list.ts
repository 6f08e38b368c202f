import type { JobState, PositionedJob, PurgeRequest, QueueStats, ScreenedList } from '@berth/core';
import { drain, syncClock } from './placement.js';
import { positionOf, stateAt, toRecord } from './record.js';
import { type Row, removeRow, type Store } from './store.js';

function matches(row: Row, request: ScreenedList, now: number): boolean {
  return (
    (request.state === undefined || stateAt(row, now) === request.state) &&
    (request.queue === undefined || row.queue === request.queue) &&
    (request.name === undefined || row.name === request.name) &&
    (request.tenantId === undefined || row.tenantId === request.tenantId)
  );
}

/**
 * Walks up to `limit + 1` rows from the cursor, keyset style: `after` → rows strictly after it in
 * list order; `before` → rows strictly before it, nearest first; neither → from the newest. The
 * cursor is found by binary search; a filter is checked row by row on the walk, so a filter that
 * matches few rows walks past the ones it does not match.
 */
export function list(store: Store, request: ScreenedList): readonly PositionedJob[] {
  const now = store.clock.now();
  const page: PositionedJob[] = [];
  store.listing.walk(request, (row) => {
    if (matches(row, request, now)) {
      page.push({ job: toRecord(row, now), position: positionOf(row) });
    }
    return page.length <= request.limit;
  });
  return page;
}

/**
 * Per queue holding any row, in code-unit order of the queue name. Due timers are drained first,
 * so the counts kept per queue are the effective ones; the oldest ready row tops each lane's age
 * heap. O(queues × lanes), plus each due row moved once.
 */
export function stats(store: Store): readonly QueueStats[] {
  const now = store.clock.now();
  const { placement } = store;
  syncClock(placement, now);
  const names = [...placement.queues.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.map((name) => {
    const queue = placement.queues.get(name);
    if (queue === undefined) throw new Error(`stats: queue ${name} vanished`);
    let oldestReady: number | undefined;
    for (const lane of queue.lanes.values()) {
      drain(lane, now);
      const oldest = lane.age.peek()?.runAt;
      if (oldest !== undefined && (oldestReady === undefined || oldest < oldestReady)) {
        oldestReady = oldest;
      }
    }
    return {
      queue: name,
      counts: { ...queue.counts },
      oldestReadyAgeMs: oldestReady === undefined ? null : now - oldestReady,
    };
  });
}

/** Removes rows of `states` finished before `olderThan`, with their steps: oldest first per state. */
export function purge(store: Store, request: PurgeRequest): number {
  let removed = 0;
  if (request.ids !== undefined) {
    const states = new Set<JobState>(request.states);
    for (const id of request.ids) {
      const row = store.rows.get(id);
      if (row === undefined || !states.has(row.state) || row.finishedAt === undefined) continue;
      if (row.finishedAt >= request.olderThan) continue;
      removeRow(store, row);
      removed += 1;
    }
    return removed;
  }
  for (const state of new Set<JobState>(request.states)) {
    const finished = store.placement.finished.get(state);
    for (let row = finished?.peek(); row?.finishedAt !== undefined; row = finished?.peek()) {
      if (row.finishedAt >= request.olderThan) break;
      removeRow(store, row);
      removed += 1;
    }
  }
  return removed;
}
