import {
  JOB_STATES,
  type JobState,
  type ListPosition,
  type PositionedJob,
  type PurgeRequest,
  type QueueStats,
  type ScreenedList,
} from '@berth/core';
import { positionOf, type Row, removeRow, type Store, stateAt, toRecord } from './store.js';

/** Negative when `a` comes first in LIST order: newest first, then later insertion first. */
const listOrder = (a: ListPosition, b: ListPosition): number =>
  b.createdAt - a.createdAt || b.seq - a.seq;

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
 * list order; `before` → rows strictly before it, nearest first; neither → from the newest.
 */
export function list(store: Store, request: ScreenedList): readonly PositionedJob[] {
  const now = store.clock.now();
  const { after, before } = request;
  const walked: Row[] = [];
  for (const row of store.rows.values()) {
    if (!matches(row, request, now)) continue;
    const position = positionOf(row);
    if (after !== undefined && listOrder(position, after) <= 0) continue;
    if (before !== undefined && listOrder(position, before) >= 0) continue;
    walked.push(row);
  }
  walked.sort((a, b) =>
    before === undefined
      ? listOrder(positionOf(a), positionOf(b))
      : listOrder(positionOf(b), positionOf(a)),
  );
  return walked
    .slice(0, request.limit + 1)
    .map((row) => ({ job: toRecord(row, now), position: positionOf(row) }));
}

const zeroCounts = (): Record<JobState, number> =>
  Object.fromEntries(JOB_STATES.map((state) => [state, 0])) as Record<JobState, number>;

/** Per queue holding any row, in code-unit order of the queue name. */
export function stats(store: Store): readonly QueueStats[] {
  const now = store.clock.now();
  const queues = new Map<string, { counts: Record<JobState, number>; oldestReady?: number }>();
  for (const row of store.rows.values()) {
    let entry = queues.get(row.queue);
    if (entry === undefined) {
      entry = { counts: zeroCounts() };
      queues.set(row.queue, entry);
    }
    const state = stateAt(row, now);
    entry.counts[state] += 1;
    if (state === 'ready' && (entry.oldestReady === undefined || row.runAt < entry.oldestReady)) {
      entry.oldestReady = row.runAt;
    }
  }
  return [...queues.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([queue, entry]) => ({
      queue,
      counts: entry.counts,
      oldestReadyAgeMs: entry.oldestReady === undefined ? null : now - entry.oldestReady,
    }));
}

/** Removes rows of `states` finished before `olderThan`, with their steps. */
export function purge(store: Store, request: PurgeRequest): number {
  const states = new Set<JobState>(request.states);
  let removed = 0;
  const candidates =
    request.ids === undefined
      ? [...store.rows.values()]
      : request.ids.flatMap((id) => store.rows.get(id) ?? []);
  for (const row of candidates) {
    if (!states.has(row.state) || row.finishedAt === undefined) continue;
    if (row.finishedAt >= request.olderThan) continue;
    removeRow(store, row);
    removed += 1;
  }
  return removed;
}
