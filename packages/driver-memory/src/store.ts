import {
  type Clock,
  type DriverHooks,
  type EventRecord,
  effectiveState,
  type JobError,
  type JobRecord,
  type JobState,
  type Json,
  LIVE_STATES,
  type StepRecord,
} from '@berth/core';

export const DRIVER_NAME = 'memory';

/** A stored job: the record's fields with the STORED state, plus the insertion sequence. */
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
  finishedAt?: number;
  claimedBy?: string;
  claim: number;
  visibleAt?: number;
  lastError?: JobError;
  result?: Json;
  progress?: Json;
  idempotencyKey?: string;
  concurrencyKey?: string;
  tenantId?: string;
  traceparent?: string;
  enqueuedBy?: string;
  waitFor?: string;
}

export interface StoredEvent {
  readonly record: EventRecord;
  readonly seq: number;
}

export interface Held {
  readonly holder: string;
  readonly expiresAt: number;
}

export interface WakeListener {
  readonly queues: ReadonlySet<string>;
  readonly onWork: (queue: string) => void;
}

/**
 * Everything the driver holds. Each operation reads `clock.now()` once and makes its whole change
 * synchronously, so no other call interleaves with it: that is this driver's atomicity.
 */
export interface Store {
  readonly clock: Clock;
  readonly hooks: DriverHooks;
  readonly rows: Map<string, Row>;
  /** Queue → its rows in a LIVE stored state: what claims and publishes scan, not every row. */
  readonly liveByQueue: Map<string, Set<Row>>;
  /** Idempotency namespace key → id of the LIVE row holding it. */
  readonly liveKeys: Map<string, string>;
  /** runId → step name → step; a Map keeps first-insertion order, which is write order. */
  readonly steps: Map<string, Map<string, StepRecord>>;
  readonly events: StoredEvent[];
  readonly leases: Map<string, Held>;
  /** Slot key → holder → expiry. */
  readonly slots: Map<string, Map<string, number>>;
  /** Named monotonic marks: name -> value. */
  readonly marks: Map<string, number>;
  readonly listeners: Set<WakeListener>;
  nextSeq(): number;
  closed: boolean;
}

export function createStore(clock: Clock, hooks: DriverHooks): Store {
  let seq = 0;
  return {
    clock,
    hooks,
    rows: new Map(),
    liveByQueue: new Map(),
    liveKeys: new Map(),
    steps: new Map(),
    events: [],
    leases: new Map(),
    slots: new Map(),
    marks: new Map(),
    listeners: new Set(),
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

function indexLive(store: Store, row: Row, live: boolean): void {
  let rows = store.liveByQueue.get(row.queue);
  if (live) {
    if (rows === undefined) {
      rows = new Set();
      store.liveByQueue.set(row.queue, rows);
    }
    rows.add(row);
  } else if (rows !== undefined) {
    rows.delete(row);
    if (rows.size === 0) store.liveByQueue.delete(row.queue);
  }
}

/**
 * The one way a row's stored state changes: it keeps the indexes in step, so a row that leaves
 * LIVE frees its idempotency key and a row that re-enters LIVE (requeue) takes it again.
 */
export function setState(store: Store, row: Row, state: JobState): void {
  row.state = state;
  const live = LIVE_STATES.has(state);
  indexLive(store, row, live);
  const key = rowKey(row);
  if (key === undefined) return;
  if (live) store.liveKeys.set(key, row.id);
  else if (store.liveKeys.get(key) === row.id) store.liveKeys.delete(key);
}

/** Adds a new row and, when it is live and holds a key, takes that key. */
export function insertRow(store: Store, row: Row): void {
  store.rows.set(row.id, row);
  setState(store, row, row.state);
}

/** Removes a row for good (purge), with its steps and anything it held in the indexes. */
export function removeRow(store: Store, row: Row): void {
  indexLive(store, row, false);
  const key = rowKey(row);
  if (key !== undefined && store.liveKeys.get(key) === row.id) store.liveKeys.delete(key);
  store.rows.delete(row.id);
  store.steps.delete(row.runId);
}

/** Every LIVE row of `queues` (all queues when omitted). */
export function* liveRows(store: Store, queues?: Iterable<string>): Generator<Row> {
  for (const queue of queues ?? store.liveByQueue.keys()) {
    yield* store.liveByQueue.get(queue) ?? [];
  }
}

/** A row by id, seen through the tenancy rule: another tenant's row is as absent. */
export function findRow(store: Store, id: string, tenantId: string | undefined): Row | undefined {
  const row = store.rows.get(id);
  if (row === undefined) return undefined;
  if (tenantId !== undefined && row.tenantId !== tenantId) return undefined;
  return row;
}

/** The state a read reports for the row at `now`. */
export const stateAt = (row: Row, now: number): JobState =>
  effectiveState(row.state, row.runAt, now);

/** A deep copy: nothing handed out may alias the store, nothing taken in may alias the caller. */
export const copyJson = <T extends Json>(value: T): T => structuredClone(value);

/** The one place a row's insertion order and list position come from. */
export const positionOf = (row: Row): { createdAt: number; seq: number } => ({
  createdAt: row.createdAt,
  seq: row.seq,
});

export const copyError = (error: JobError): JobError => ({
  ...(error.code === undefined ? {} : { code: error.code }),
  message: error.message,
  ...(error.stack === undefined ? {} : { stack: error.stack }),
});

/** The record a read reports: a fresh object, effective state, optional fields absent when unset. */
export function toRecord(row: Row, now: number): JobRecord {
  return {
    id: row.id,
    runId: row.runId,
    name: row.name,
    queue: row.queue,
    payload: copyJson(row.payload),
    state: stateAt(row, now),
    priority: row.priority,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    runAt: row.runAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...(row.finishedAt === undefined ? {} : { finishedAt: row.finishedAt }),
    ...(row.claimedBy === undefined ? {} : { claimedBy: row.claimedBy }),
    claim: row.claim,
    ...(row.visibleAt === undefined ? {} : { visibleAt: row.visibleAt }),
    ...(row.lastError === undefined ? {} : { lastError: copyError(row.lastError) }),
    ...(row.result === undefined ? {} : { result: copyJson(row.result) }),
    ...(row.progress === undefined ? {} : { progress: copyJson(row.progress) }),
    ...(row.idempotencyKey === undefined ? {} : { idempotencyKey: row.idempotencyKey }),
    ...(row.concurrencyKey === undefined ? {} : { concurrencyKey: row.concurrencyKey }),
    ...(row.tenantId === undefined ? {} : { tenantId: row.tenantId }),
    ...(row.traceparent === undefined ? {} : { traceparent: row.traceparent }),
    ...(row.enqueuedBy === undefined ? {} : { enqueuedBy: row.enqueuedBy }),
    ...(row.waitFor === undefined ? {} : { waitFor: row.waitFor }),
  };
}

/** Drops the lease fields a settle clears. */
export function clearLease(row: Row): void {
  delete row.claimedBy;
  delete row.visibleAt;
}
