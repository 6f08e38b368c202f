import {
  type EventBackend,
  type Fence,
  type LeaseStore,
  leaseLost,
  type MarkStore,
  newEventRecord,
  type StepRecord,
  type StepStore,
  stepInvalid,
} from '@berth/core/driver';
import {
  type EventRow,
  int,
  jsonParam,
  type StepRow,
  toEventRecord,
  toStepRecord,
} from '../rows.js';
import type { OpsContext } from './context.js';

/** Waiters one publish statement wakes; publish loops until every waiter is woken. */
const WAKE_BATCH = 1_000;
/** Slot rows whose holders all expired that one acquireSlot or releaseSlot deletes. */
const SLOT_SWEEP = 100;
/** Rows a purge call removes when the caller names no limit (DEFAULT_PURGE_LIMIT in core). */
export const DEFAULT_PURGE_BATCH = 1_000;

export function stepStore({ db, sql }: OpsContext): StepStore {
  return {
    async get(runId, name) {
      const [row] = await db.rows<StepRow>('read a step', sql.steps.get, [runId, name]);
      return row === undefined ? undefined : toStepRecord(row);
    },
    async put(record: StepRecord, fence: Fence) {
      const [row] = await db.rows<{ fenced_run: string | null; written: boolean }>(
        'write a step',
        sql.steps.put,
        [
          fence.jobId,
          fence.workerId,
          fence.claim,
          record.runId,
          record.name,
          record.status,
          jsonParam(record.output),
          record.error === undefined ? null : JSON.stringify(record.error),
          record.attempts,
          record.wakeAt ?? null,
          record.eventName ?? null,
          record.eventId ?? null,
          record.startedAt,
          record.updatedAt,
        ],
      );
      if (row?.written === true) return;
      if (row?.fenced_run === null || row === undefined) throw leaseLost(fence);
      throw stepInvalid(
        `step "${record.name}" names run ${record.runId}, but job ${fence.jobId} runs ${row.fenced_run}`,
        { jobId: fence.jobId, runId: record.runId, step: record.name },
      );
    },
    async list(runId) {
      const rows = await db.rows<StepRow>('list steps', sql.steps.list, [runId]);
      return rows.map(toStepRecord);
    },
  };
}

export function eventStore({ db, sql, clock, channel }: OpsContext): EventBackend {
  return {
    async publish(name, payload, ttlMs) {
      const event = newEventRecord(name, payload, clock.now(), ttlMs);
      const [row] = await db.rows<EventRow>('publish an event', sql.events.publish, [
        event.id,
        name,
        jsonParam(payload),
        event.publishedAt,
        event.expiresAt,
        channel,
        WAKE_BATCH,
      ]);
      if (row === undefined) throw new Error('the event insert answered no row');
      return toEventRecord(row);
    },
    async find(name, options) {
      const [row] = await db.rows<EventRow>('find an event', sql.events.find, [
        name,
        clock.now(),
        options.after,
        options.match === undefined ? null : JSON.stringify(options.match),
        options.exclude ?? null,
      ]);
      return row === undefined ? undefined : toEventRecord(row);
    },
    async list(name) {
      const rows = await db.rows<EventRow>('list events', sql.events.list, [
        clock.now(),
        name ?? null,
      ]);
      return rows.map(toEventRecord);
    },
    async purgeExpired(options: { readonly limit?: number } = {}) {
      const [row] = await db.rows<{ removed: string }>(
        'purge expired events',
        sql.events.purgeExpired,
        [clock.now(), options.limit ?? DEFAULT_PURGE_BATCH],
      );
      return row === undefined ? 0 : int(row.removed);
    },
  };
}

export function markStore({ db, sql }: OpsContext): MarkStore {
  return {
    async get(name) {
      const [row] = await db.rows<{ value: string }>('read a mark', sql.marks.get, [name]);
      return row === undefined ? undefined : Number(row.value);
    },
    async advance(name, value) {
      return (await db.rows('advance a mark', sql.marks.advance, [name, value])).length > 0;
    },
  };
}

export function leaseStore({ db, sql, clock }: OpsContext): LeaseStore {
  const granted = async (operation: string, text: string, values: unknown[]) =>
    (await db.rows(operation, text, values)).length > 0;
  return {
    acquire(name, holder, ttlMs) {
      const now = clock.now();
      return granted('acquire a lease', sql.leases.acquire, [name, holder, now, now + ttlMs]);
    },
    renew(name, holder, ttlMs) {
      const now = clock.now();
      return granted('renew a lease', sql.leases.renew, [name, holder, now, now + ttlMs]);
    },
    release(name, holder) {
      return granted('release a lease', sql.leases.release, [name, holder, clock.now()]);
    },
    async holder(name) {
      const [row] = await db.rows<{ holder: string; expires_at: string }>(
        'read a lease',
        sql.leases.holder,
        [name, clock.now()],
      );
      return row === undefined ? undefined : { holder: row.holder, expiresAt: int(row.expires_at) };
    },
    acquireSlot(key, limit, holder, ttlMs) {
      const now = clock.now();
      return granted('acquire a slot', sql.leases.acquireSlot, [
        key,
        limit,
        holder,
        now,
        now + ttlMs,
        SLOT_SWEEP,
      ]);
    },
    renewSlot(key, holder, ttlMs) {
      const now = clock.now();
      return granted('renew a slot', sql.leases.renewSlot, [key, holder, now, now + ttlMs]);
    },
    releaseSlot(key, holder) {
      return granted('release a slot', sql.leases.releaseSlot, [
        key,
        holder,
        clock.now(),
        SLOT_SWEEP,
      ]);
    },
  };
}
