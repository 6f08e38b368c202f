import {
  type AttemptHistory,
  type BackfillRun,
  type Clock,
  type DriverHooks,
  type EventRecord,
  type JobError,
  type JobState,
  type Json,
  LIVE_STATES,
  type StepRecord,
  TERMINAL_STATES,
} from '@berth/core/driver';
import { EventLog } from './event-log.js';
import type { RowHeap } from './heap.js';
import { LifecycleLog } from './lifecycle.js';
import { ListIndex } from './list-index.js';
import type { JobLog } from './logs.js';
import type { Meter } from './meter.js';
import {
  countIn,
  countOut,
  createPlacement,
  type Lane,
  type Placement,
  replace,
  unplace,
} from './placement.js';
import { ScheduleTable } from './schedules.js';
import { notifySettled } from './settle-notices.js';

export const DRIVER_NAME = 'memory';

/**
 * A stored job: the record's fields with the STORED state, plus the insertion sequence. Every
 * field is always present (undefined when unset) so rows keep one shape.
 */
export interface Row {
  id: string;
  runId: string;
  seq: number;
  name: string;
  queue: string;
  payload: Json;
  state: JobState;
  priority: number;
  attempts: number;
  maxAttempts: number;
  runAt: number;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | undefined;
  claimedBy: string | undefined;
  /** When the claim that holds the row took it (the attempt history's `claimedAt`). */
  claimedAt: number | undefined;
  claim: number;
  visibleAt: number | undefined;
  lastError: JobError | undefined;
  result: Json | undefined;
  progress: Json | undefined;
  idempotencyKey: string | undefined;
  concurrencyKey: string | undefined;
  tenantId: string | undefined;
  traceparent: string | undefined;
  enqueuedBy: string | undefined;
  parentId: string | undefined;
  waitFor: string | undefined;
  /** Its attempt history (attempts.ts): on the row, so an ack costs no map lookup. */
  history: AttemptHistory | undefined;
  // Index bookkeeping, kept by placement.ts and the waiters map; never part of a record.
  /** The heap the row sits in (ready, timers, leases, lapsed, exhausted or finished). */
  home: RowHeap | undefined;
  at: number;
  /** Index in its lane's age heap, -1 when not ready. */
  ageAt: number;
  /** The state the row's queue counts it under (a drained due row counts `ready`). */
  counted: JobState | undefined;
  lane: Lane | undefined;
  /** The event name the waiters map holds this row under. */
  waiting: string | undefined;
}

export interface StoredEvent {
  readonly record: EventRecord;
  readonly seq: number;
}

export interface Held {
  readonly holder: string;
  readonly expiresAt: number;
}

export type SettleListener = (jobIds: readonly string[]) => void;

export interface WakeListener {
  readonly queues: ReadonlySet<string>;
  readonly onWork: (queue: string) => void;
  readonly onCancelled: ((jobId: string) => void) | undefined;
}

/**
 * Everything the driver holds. Each operation reads `clock.now()` once and makes its whole change
 * synchronously, so no other call interleaves with it: that is this driver's atomicity.
 */
export interface Store {
  readonly clock: Clock;
  readonly hooks: DriverHooks;
  readonly rows: Map<string, Row>;
  /** Where each row waits, per queue and job name: what claims and stats read, never a scan. */
  readonly placement: Placement;
  /** Every row in list order, for keyset pages. */
  readonly listing: ListIndex;
  /** Event name → the `suspended` rows waiting for it: all a publish touches. */
  readonly waiters: Map<string, Set<Row>>;
  /** Idempotency namespace key → id of the LIVE row holding it. */
  readonly liveKeys: Map<string, string>;
  /** runId → step name → step; a Map keeps first-insertion order, which is write order. */
  readonly steps: Map<string, Map<string, StepRecord>>;
  /** Job id → its log lines (`logs.ts`). */
  readonly logs: Map<string, JobLog>;
  /** Events in publish order, per name, and by expiry. */
  readonly events: EventLog;
  /** The lifecycle event stream: the newest `lifecycleRetention` events (lifecycle.ts). */
  readonly lifecycle: LifecycleLog;
  readonly leases: Map<string, Held>;
  /** Slot key → holder → expiry. */
  readonly slots: Map<string, Map<string, number>>;
  /** Named monotonic marks: name -> value. */
  readonly marks: Map<string, number>;
  /** Paused queue -> when its pause began: claims skip these queues. */
  readonly paused: Map<string, number>;
  /** The backfill ledger: runId -> run (backfills.ts). */
  readonly backfills: Map<string, BackfillRun>;
  /** Stored schedules (schedules.ts). */
  readonly schedules: ScheduleTable;
  readonly listeners: Set<WakeListener>;
  /** `watchSettles` listeners, and the ids settled since their last delivery (wake.ts). */
  readonly settleListeners: Set<SettleListener>;
  readonly settledPending: string[];
  readonly meter: Meter;
  nextSeq(): number;
  closed: boolean;
}

export function createStore(clock: Clock, hooks: DriverHooks, lifecycleRetention: number): Store {
  let seq = 0;
  const meter: Meter = { visits: 0 };
  return {
    clock,
    hooks,
    rows: new Map(),
    placement: createPlacement(meter),
    listing: new ListIndex(meter),
    waiters: new Map(),
    liveKeys: new Map(),
    steps: new Map(),
    logs: new Map(),
    events: new EventLog(meter),
    lifecycle: new LifecycleLog(lifecycleRetention),
    leases: new Map(),
    slots: new Map(),
    marks: new Map(),
    paused: new Map(),
    backfills: new Map(),
    schedules: new ScheduleTable(clock),
    listeners: new Set(),
    settleListeners: new Set(),
    settledPending: [],
    meter,
    nextSeq: () => {
      seq += 1;
      return seq;
    },
    closed: false,
  };
}

/** The idempotency namespace `(name, tenantId ?? none, key)`; JSON keeps the parts apart. */
export const namespaceKey = (name: string, tenantId: string | undefined, key: string): string =>
  JSON.stringify([name, tenantId ?? null, key]);

const rowKey = (row: Row): string | undefined =>
  row.idempotencyKey === undefined
    ? undefined
    : namespaceKey(row.name, row.tenantId, row.idempotencyKey);

/** Keeps the waiters map in step: a `suspended` row with `waitFor` waits for that event. */
function indexWaiter(store: Store, row: Row, present: boolean): void {
  const wanted = present && row.state === 'suspended' ? row.waitFor : undefined;
  if (row.waiting === wanted) return;
  if (row.waiting !== undefined) {
    const waiting = store.waiters.get(row.waiting);
    waiting?.delete(row);
    if (waiting?.size === 0) store.waiters.delete(row.waiting);
  }
  row.waiting = wanted;
  if (wanted === undefined) return;
  let waiting = store.waiters.get(wanted);
  if (waiting === undefined) {
    waiting = new Set();
    store.waiters.set(wanted, waiting);
  }
  waiting.add(row);
}

/** Keeps the live-key index in step: a LIVE row holds its key, a settled one frees it. */
function indexKey(store: Store, row: Row, present: boolean): void {
  const key = rowKey(row);
  if (key === undefined) return;
  if (present && LIVE_STATES.has(row.state)) store.liveKeys.set(key, row.id);
  else if (store.liveKeys.get(key) === row.id) store.liveKeys.delete(key);
}

/**
 * The one way a row's stored state changes, called AFTER its other fields (runAt, visibleAt,
 * finishedAt, waitFor) took their new values: it re-places the row, so every index agrees with
 * the fields. A row that leaves LIVE frees its key; one that re-enters LIVE (requeue) takes it.
 */
export function setState(store: Store, row: Row, state: JobState): void {
  const was = row.state;
  row.state = state;
  replace(store.placement, row);
  indexWaiter(store, row, true);
  indexKey(store, row, true);
  if (TERMINAL_STATES.has(state) && !TERMINAL_STATES.has(was)) notifySettled(store, row.id);
}

/** Adds a new row and, when it is live and holds a key, takes that key. */
export function insertRow(store: Store, row: Row): void {
  store.rows.set(row.id, row);
  store.listing.add(row);
  countIn(store.placement, row);
  setState(store, row, row.state);
}

/** Removes a row for good (purge), with its steps and anything it held in the indexes. */
export function removeRow(store: Store, row: Row): void {
  unplace(store.placement, row);
  countOut(store.placement, row);
  indexWaiter(store, row, false);
  indexKey(store, row, false);
  store.listing.delete(row);
  store.rows.delete(row.id);
  store.steps.delete(row.runId);
  store.logs.delete(row.id);
}

/** A row by id, seen through the tenancy rule: another tenant's row is as absent. */
export function findRow(store: Store, id: string, tenantId: string | undefined): Row | undefined {
  const row = store.rows.get(id);
  if (row === undefined) return undefined;
  if (tenantId !== undefined && row.tenantId !== tenantId) return undefined;
  return row;
}

/** Drops the lease fields a settle clears. */
export function clearLease(row: Row): void {
  row.claimedBy = undefined;
  row.visibleAt = undefined;
}
