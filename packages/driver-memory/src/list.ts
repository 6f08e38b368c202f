import type {
  JobState,
  PositionedJob,
  QueueStats,
  ScreenedList,
  ScreenedPurge,
} from '@berth/core/driver';
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

const finishedFirst = (a: Row, b: Row): number =>
  (a.finishedAt ?? 0) - (b.finishedAt ?? 0) || a.seq - b.seq;

/**
 * Removes up to `limit` rows of `states` finished before `olderThan`, with their steps: oldest
 * `finishedAt` first across the states (then insertion order), taking each from the head of its
 * state's heap, so the work is bounded by the limit.
 */
export function purge(store: Store, request: ScreenedPurge): number {
  if (request.ids !== undefined) {
    const states = new Set<JobState>(request.states);
    const rows: Row[] = [];
    for (const id of request.ids) {
      const row = store.rows.get(id);
      if (row === undefined || !states.has(row.state) || row.finishedAt === undefined) continue;
      if (row.finishedAt < request.olderThan) rows.push(row);
    }
    const chosen = rows.sort(finishedFirst).slice(0, request.limit);
    for (const row of chosen) removeRow(store, row);
    return chosen.length;
  }
  const heaps = request.states.flatMap((state) => {
    const heap = store.placement.finished.get(state);
    return heap === undefined ? [] : [heap];
  });
  let removed = 0;
  while (removed < request.limit) {
    let oldest: Row | undefined;
    for (const heap of heaps) {
      const head = heap.peek();
      if (head === undefined || (head.finishedAt ?? 0) >= request.olderThan) continue;
      if (oldest === undefined || finishedFirst(head, oldest) < 0) oldest = head;
    }
    if (oldest === undefined) break;
    removeRow(store, oldest);
    removed += 1;
  }
  return removed;
}
