import type { Json } from './records.js';

/**
 * Schedules stored by the driver: cron schedules an app adds, changes, pauses and removes at run
 * time (`client.schedules`, `berth schedules`, the dashboard), which every running scheduler
 * picks up at its next tick without a restart. The driver stores records; core decides what
 * they hold (the next slot from the cron expression, a catch-up) and the scheduler enqueues
 * their slots. Kit group: `schedules`.
 *
 * A schedule is named by `(tenantId, name)`: two tenants may each hold a schedule of one name.
 * Tenancy: a by-name call and `list` that name a `tenantId` see only that tenant's schedules
 * (another tenant's answers as missing); a call without one is an operator's: by name it sees
 * only the schedule of no tenant, and `list` sees every tenant's.
 */

/** The most schedules one `list` or `due` answers. */
export const MAX_SCHEDULE_PAGE = 100;

/** A cron expression may be this long at most. */
export const MAX_CRON_LENGTH = 200;

/** A schedule as every call answers it. */
export interface ScheduleRecord {
  /** Unique per tenant; part of each slot's job id and idempotency key. */
  readonly name: string;
  readonly tenantId?: string;
  /** 5 fields, or 6 with seconds first. */
  readonly cron: string;
  /** An IANA zone the expression is read in; absent: UTC. */
  readonly timezone?: string;
  /** The name of the job each slot enqueues. */
  readonly job: string;
  /** The queue each slot's job goes to; absent: the default queue. */
  readonly queue?: string;
  readonly payload: Json;
  readonly priority?: number;
  readonly maxAttempts?: number;
  /** A paused schedule enqueues nothing and is never `due`. */
  readonly paused: boolean;
  /**
   * The earliest slot not yet enqueued (epoch ms): the scheduler enqueues the slots from here up
   * to its now, then stores the next one. A slot at or before `updatedAt` was asked for by the
   * write that stored it (a catch-up), not missed by the scheduler.
   */
  readonly nextAt: number;
  /** 1 when created, one more on every stored change: the condition of the next one. */
  readonly revision: number;
  /** The driver's clock, epoch ms. */
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What `put` stores: everything but the fields the driver keeps. */
export type ScheduleWrite = Omit<ScheduleRecord, 'revision' | 'createdAt' | 'updatedAt'>;

/** A schedule's place in `list` order: `name`, then `tenantId` (none first). */
export interface SchedulePosition {
  readonly name: string;
  readonly tenantId?: string | undefined;
}

/** A screened `list`. */
export interface ScheduleListRequest {
  /** Only this tenant's schedules; undefined: every tenant's. */
  readonly tenantId: string | undefined;
  /** Only schedules after this one in list order. */
  readonly after: SchedulePosition | undefined;
  /** 1..MAX_SCHEDULE_PAGE. */
  readonly limit: number;
}

/** A screened `due`. */
export interface ScheduleDueRequest {
  /** Schedules whose `nextAt` is at or before this instant. */
  readonly upTo: number;
  /** 1..MAX_SCHEDULE_PAGE. */
  readonly limit: number;
}

/**
 * What a driver author implements (`DriverBackend.schedules`); inputs are screened. Each call is
 * ONE atomic change or one read (pg: one statement; redis: one script; NATS: one conditional
 * write of the schedule's key; memory: one synchronous step). `put` and `remove` are
 * conditioned on the revision the caller read, so of racing writers (siblings, a scheduler and
 * an operator) exactly one lands, and a caller that lost an answer and retries is refused as
 * any stale writer is: it reads again and decides from what it finds.
 * - put(schedule, revision): lands when the stored revision of `(tenantId, name)` equals
 *   `revision` (0: nothing is stored). Stores `schedule` with `revision + 1`, `updatedAt = now`
 *   and `createdAt` kept (now on a create), and answers the stored record; otherwise changes
 *   nothing and answers undefined.
 * - get(name, tenantId): the record of exactly that `(tenantId, name)`, or undefined.
 * - remove(name, tenantId, revision): removes it when stored at `revision`; answers whether it
 *   went. A removed name may be put again (revision 0), starting at revision 1.
 * - list: records matching `tenantId` (every tenant's when undefined) after `after`, in list
 *   order (`name` in code-unit order, then `tenantId` with none first), at most `limit`.
 * - due: records not `paused` with `nextAt <= upTo`, by `nextAt`, then list order, at most
 *   `limit`. Found through an index on `nextAt` (redis: a sorted set; NATS: the process's
 *   watched copy of the bucket), never by reading every schedule: a scheduler calls it each
 *   tick, and its cost grows with the schedules due, not with those stored.
 * Durability: a schedule is stored like a job row (see each driver README's durability table).
 */
export interface ScheduleBackend {
  put(schedule: ScheduleWrite, revision: number): Promise<ScheduleRecord | undefined>;
  get(name: string, tenantId: string | undefined): Promise<ScheduleRecord | undefined>;
  remove(name: string, tenantId: string | undefined, revision: number): Promise<boolean>;
  list(request: ScheduleListRequest): Promise<readonly ScheduleRecord[]>;
  due(request: ScheduleDueRequest): Promise<readonly ScheduleRecord[]>;
}

/** Options of a by-name call. */
export interface ScheduleByNameOptions {
  readonly tenantId?: string;
}

/** Options of `list` as callers give them. */
export interface ScheduleListOptions {
  readonly tenantId?: string;
  /** A page's `next`: the page after it. */
  readonly after?: string;
  /** Default 20, at most MAX_SCHEDULE_PAGE. */
  readonly limit?: number;
}

/** A page of schedules; `next` is there when more may follow. */
export interface SchedulePage {
  readonly schedules: readonly ScheduleRecord[];
  readonly next?: string;
}

/**
 * The store as the runtime sees it (`driver.schedules`): the backend's calls, each screened by
 * core first (names as enqueue's `name`, a cron expression that parses in its zone, a payload
 * within the driver's `maxPayloadBytes`, instants and revisions safe integers; otherwise
 * JOB_INVALID naming the field). Apps use `client.schedules`, which computes `nextAt` and
 * retries a write that lost a race.
 */
export interface ScheduleStore {
  put(schedule: ScheduleWrite, revision: number): Promise<ScheduleRecord | undefined>;
  get(name: string, options?: ScheduleByNameOptions): Promise<ScheduleRecord | undefined>;
  remove(name: string, revision: number, options?: ScheduleByNameOptions): Promise<boolean>;
  /** A page in list order; JOB_PAGE_INVALID for an `after` no page produced. */
  list(options?: ScheduleListOptions): Promise<SchedulePage>;
  due(upTo: number, limit: number): Promise<readonly ScheduleRecord[]>;
}
