import type {
  Json,
  Mutable,
  ScheduleBackend,
  SchedulePosition,
  ScheduleRecord,
  ScheduleWrite,
} from '@berth/core/driver';
import { int } from '../rows.js';
import type { OpsContext } from './context.js';

/** A schedule as its statements answer it: int8 arrive as strings, the payload as JSON text. */
interface ScheduleRow {
  readonly name: string;
  readonly tenant_id: string;
  readonly cron: string;
  readonly timezone: string | null;
  readonly job: string;
  readonly queue: string | null;
  readonly payload: string;
  readonly priority: number | null;
  readonly max_attempts: number | null;
  readonly paused: boolean;
  readonly next_at: string;
  readonly revision: string;
  readonly created_at: string;
  readonly updated_at: string;
}

/** The stored `tenant_id` of no tenant: tenant names are never empty. */
const NO_TENANT = '';

const tenantKey = (tenantId: string | undefined): string => tenantId ?? NO_TENANT;

/**
 * The UTF-16BE bytes of `text`: their byte order is the contract's code-unit order, which no
 * pg collation gives (migration 15). No tenant ('') is the empty key, before every tenant.
 */
const orderKey = (text: string): Buffer => Buffer.from(text, 'utf16le').swap16();

/** The record as every driver answers it: optional fields absent when their column is NULL. */
function toSchedule(row: ScheduleRow): ScheduleRecord {
  const schedule: Mutable<ScheduleRecord> = {
    name: row.name,
    cron: row.cron,
    job: row.job,
    payload: JSON.parse(row.payload) as Json,
    paused: row.paused,
    nextAt: int(row.next_at),
    revision: int(row.revision),
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  };
  if (row.tenant_id !== NO_TENANT) schedule.tenantId = row.tenant_id;
  if (row.timezone !== null) schedule.timezone = row.timezone;
  if (row.queue !== null) schedule.queue = row.queue;
  if (row.priority !== null) schedule.priority = row.priority;
  if (row.max_attempts !== null) schedule.maxAttempts = row.max_attempts;
  return schedule;
}

/** What a write stores besides its key, in the order both put statements bind it from cron on. */
const writeValues = (write: ScheduleWrite): unknown[] => [
  write.cron,
  write.timezone ?? null,
  write.job,
  write.queue ?? null,
  JSON.stringify(write.payload),
  write.priority ?? null,
  write.maxAttempts ?? null,
  write.paused,
  write.nextAt,
];

/** A list position's order keys; none: before every schedule (names are never empty). */
const positionKeys = (after: SchedulePosition | undefined): [Buffer, Buffer] =>
  after === undefined
    ? [Buffer.alloc(0), Buffer.alloc(0)]
    : [orderKey(after.name), orderKey(tenantKey(after.tenantId))];

export function scheduleStore({ db, sql, clock }: OpsContext): ScheduleBackend {
  return {
    async put(write, revision) {
      const tenantId = tenantKey(write.tenantId);
      const now = clock.now();
      // Revision 0 creates (only when nothing is stored); any other updates at that revision.
      const [row] =
        revision === 0
          ? await db.rows<ScheduleRow>('store a schedule', sql.schedules.create, [
              tenantId,
              write.name,
              orderKey(tenantId),
              orderKey(write.name),
              ...writeValues(write),
              now,
            ])
          : await db.rows<ScheduleRow>('store a schedule', sql.schedules.update, [
              tenantId,
              write.name,
              ...writeValues(write),
              now,
              revision,
            ]);
      return row === undefined ? undefined : toSchedule(row);
    },
    async get(name, tenantId) {
      const [row] = await db.rows<ScheduleRow>('read a schedule', sql.schedules.get, [
        tenantKey(tenantId),
        name,
      ]);
      return row === undefined ? undefined : toSchedule(row);
    },
    async remove(name, tenantId, revision) {
      const rows = await db.rows<{ removed: boolean }>('remove a schedule', sql.schedules.remove, [
        tenantKey(tenantId),
        name,
        revision,
      ]);
      return rows.length > 0;
    },
    async list({ tenantId, after, limit }) {
      const [nameAfter, tenantAfter] = positionKeys(after);
      const rows =
        tenantId === undefined
          ? await db.rows<ScheduleRow>('list schedules', sql.schedules.list, [
              nameAfter,
              tenantAfter,
              limit,
            ])
          : await db.rows<ScheduleRow>('list schedules', sql.schedules.listTenant, [
              tenantId,
              nameAfter,
              tenantAfter,
              limit,
            ]);
      return rows.map(toSchedule);
    },
    async due({ upTo, limit }) {
      const rows = await db.rows<ScheduleRow>('read due schedules', sql.schedules.due, [
        upTo,
        limit,
      ]);
      return rows.map(toSchedule);
    },
  };
}
