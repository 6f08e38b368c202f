import { JOB_STATES, type JobState, LIVE_STATES } from '@berth/core/driver';
import { RowHeap } from './heap.js';
import type { Meter } from './meter.js';
import type { Row } from './store.js';

/**
 * Where each row waits, so no call walks the backlog. Live rows sit per (queue, job name) in a
 * lane; a stored state picks the heap (`ready` → ready, `delayed`/`suspended` → timers,
 * `running` → leases); a drain at `now` moves due timers to ready and lapsed leases to lapsed
 * or exhausted, each row once. Terminal rows sit in one heap per state by `finishedAt`, for
 * purge. The counts per queue follow the heaps, so after a drain they are effective counts.
 */
export interface Lane {
  readonly queue: QueueIndex;
  readonly name: string;
  /** Claimable now: stored `ready`, and due `delayed`/`suspended`; claim order. */
  readonly ready: RowHeap;
  /** The same rows by runAt: the queue's oldest ready row. */
  readonly age: RowHeap;
  /** `delayed`/`suspended` not yet found due, by runAt. */
  readonly timers: RowHeap;
  /** `running` not yet found lapsed, by visibleAt. */
  readonly leases: RowHeap;
  /** `running`, lapsed, attempts left: claim order. */
  readonly lapsed: RowHeap;
  /** `running`, lapsed, no attempts left (a claim buries them): claim order. */
  readonly exhausted: RowHeap;
  /** Rows in this lane's heaps; at 0 the lane is dropped. */
  size: number;
}

export interface QueueIndex {
  readonly name: string;
  readonly lanes: Map<string, Lane>;
  /** Rows per state as placed: a drained due row counts `ready`. */
  readonly counts: Record<JobState, number>;
  /** Every row of the queue, terminal ones too; at 0 the queue is dropped. */
  rows: number;
}

export interface Placement {
  readonly meter: Meter;
  readonly queues: Map<string, QueueIndex>;
  readonly finished: Map<JobState, RowHeap>;
  /** The latest instant a drain used; a clock read before it means the clock went back. */
  drainedAt: number;
}

/** Claim order: priority desc, then runAt asc, then insertion order. */
export const claimsBefore = (a: Row, b: Row): boolean =>
  a.priority !== b.priority
    ? a.priority > b.priority
    : a.runAt !== b.runAt
      ? a.runAt < b.runAt
      : a.seq < b.seq;

const dueBefore = (a: Row, b: Row): boolean =>
  a.runAt !== b.runAt ? a.runAt < b.runAt : a.seq < b.seq;

const lapsesBefore = (a: Row, b: Row): boolean =>
  (a.visibleAt ?? 0) !== (b.visibleAt ?? 0)
    ? (a.visibleAt ?? 0) < (b.visibleAt ?? 0)
    : a.seq < b.seq;

const finishedBefore = (a: Row, b: Row): boolean =>
  (a.finishedAt ?? 0) !== (b.finishedAt ?? 0)
    ? (a.finishedAt ?? 0) < (b.finishedAt ?? 0)
    : a.seq < b.seq;

export function createPlacement(meter: Meter): Placement {
  return { meter, queues: new Map(), finished: new Map(), drainedAt: Number.NEGATIVE_INFINITY };
}

const zeroCounts = (): Record<JobState, number> =>
  Object.fromEntries(JOB_STATES.map((state) => [state, 0])) as Record<JobState, number>;

function queueOf(placement: Placement, name: string): QueueIndex {
  let queue = placement.queues.get(name);
  if (queue === undefined) {
    queue = { name, lanes: new Map(), counts: zeroCounts(), rows: 0 };
    placement.queues.set(name, queue);
  }
  return queue;
}

function laneOf(placement: Placement, queue: QueueIndex, name: string): Lane {
  let lane = queue.lanes.get(name);
  if (lane === undefined) {
    const { meter } = placement;
    lane = {
      queue,
      name,
      ready: new RowHeap(claimsBefore, meter),
      age: new RowHeap(dueBefore, meter, true),
      timers: new RowHeap(dueBefore, meter),
      leases: new RowHeap(lapsesBefore, meter),
      lapsed: new RowHeap(claimsBefore, meter),
      exhausted: new RowHeap(claimsBefore, meter),
      size: 0,
    };
    queue.lanes.set(name, lane);
  }
  return lane;
}

function finishedOf(placement: Placement, state: JobState): RowHeap {
  let heap = placement.finished.get(state);
  if (heap === undefined) {
    heap = new RowHeap(finishedBefore, placement.meter);
    placement.finished.set(state, heap);
  }
  return heap;
}

function settleIn(queue: QueueIndex, row: Row, heap: RowHeap | undefined, counted: JobState): void {
  heap?.push(row);
  row.home = heap;
  row.counted = counted;
  queue.counts[counted] += 1;
}

function leave(queue: QueueIndex | undefined, row: Row): void {
  row.home?.remove(row);
  row.home = undefined;
  if (row.ageAt >= 0) row.lane?.age.remove(row);
  if (queue !== undefined && row.counted !== undefined) queue.counts[row.counted] -= 1;
  row.counted = undefined;
}

function becomeReady(queue: QueueIndex, lane: Lane, row: Row): void {
  settleIn(queue, row, lane.ready, 'ready');
  lane.age.push(row);
}

/** Settles a live row in its lane's heap for its stored state. */
function settleLive(lane: Lane, row: Row): void {
  const { queue } = lane;
  if (row.state === 'ready') becomeReady(queue, lane, row);
  else if (row.state === 'running') settleIn(queue, row, lane.leases, 'running');
  else settleIn(queue, row, lane.timers, row.state);
}

/** Puts a row where its stored state says; it must be in no heap. */
function place(placement: Placement, row: Row): void {
  const queue = queueOf(placement, row.queue);
  if (LIVE_STATES.has(row.state)) {
    const lane = laneOf(placement, queue, row.name);
    row.lane = lane;
    lane.size += 1;
    settleLive(lane, row);
    return;
  }
  // A terminal row always has finishedAt; purge finds it by that.
  const heap = row.finishedAt === undefined ? undefined : finishedOf(placement, row.state);
  settleIn(queue, row, heap, row.state);
}

/**
 * Puts a row where its stored state says, after its fields changed: a row that stays live
 * moves within its lane; one that enters or leaves LIVE joins or leaves a lane.
 */
export function replace(placement: Placement, row: Row): void {
  const { lane } = row;
  if (lane !== undefined && LIVE_STATES.has(row.state)) {
    leave(lane.queue, row);
    settleLive(lane, row);
    return;
  }
  unplace(placement, row);
  place(placement, row);
}

/** Takes a row out of every heap it sits in; its fields may already have changed. */
export function unplace(placement: Placement, row: Row): void {
  leave(placement.queues.get(row.queue), row);
  const { lane } = row;
  if (lane === undefined) return;
  row.lane = undefined;
  lane.size -= 1;
  if (lane.size === 0) lane.queue.lanes.delete(lane.name);
}

/** A new row joins its queue's row count; `place` follows. */
export function countIn(placement: Placement, row: Row): void {
  queueOf(placement, row.queue).rows += 1;
}

/** A row leaves for good (purge), after `unplace`; an emptied queue is dropped. */
export function countOut(placement: Placement, row: Row): void {
  const queue = placement.queues.get(row.queue);
  if (queue === undefined) return;
  queue.rows -= 1;
  if (queue.rows === 0) placement.queues.delete(row.queue);
}

/**
 * Called with each call's `now` before any drain. A clock that went back behind an earlier drain
 * would leave rows drained that are no longer due: put every drained row back by its stored
 * state (rare, O(n)), so answers stay exactly what the fields say.
 */
export function syncClock(placement: Placement, now: number): void {
  if (now < placement.drainedAt) {
    const drained: Row[] = [];
    for (const queue of placement.queues.values()) {
      for (const lane of queue.lanes.values()) {
        drained.push(...lane.ready.list(), ...lane.lapsed.list(), ...lane.exhausted.list());
      }
    }
    for (const row of drained) replace(placement, row);
  }
  placement.drainedAt = now;
}

/** Moves due timers to ready and lapsed leases to lapsed/exhausted: each row once. */
export function drain(lane: Lane, now: number): void {
  const { queue } = lane;
  for (let row = lane.timers.peek(); row !== undefined && row.runAt <= now; ) {
    leave(queue, row);
    becomeReady(queue, lane, row);
    row = lane.timers.peek();
  }
  for (let row = lane.leases.peek(); row !== undefined && (row.visibleAt ?? 0) <= now; ) {
    leave(queue, row);
    settleIn(queue, row, row.attempts >= row.maxAttempts ? lane.exhausted : lane.lapsed, 'running');
    row = lane.leases.peek();
  }
}

/** The lanes of `queues`, only those of `names` when given; none is made. */
export function lanesOf(
  placement: Placement,
  queues: readonly string[],
  names?: readonly string[],
): Lane[] {
  const lanes: Lane[] = [];
  for (const name of queues) {
    const queue = placement.queues.get(name);
    if (queue === undefined) continue;
    if (names === undefined) lanes.push(...queue.lanes.values());
    else {
      for (const jobName of names) {
        const lane = queue.lanes.get(jobName);
        if (lane !== undefined) lanes.push(lane);
      }
    }
  }
  return lanes;
}
