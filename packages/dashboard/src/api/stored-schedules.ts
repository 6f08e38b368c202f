import {
  jobInvalid,
  MAX_SCHEDULE_PAGE,
  type ScheduleByNameOptions,
  type ScheduleControl,
  type ScheduleRecord,
  scheduleControl,
  scheduleNotFound,
} from '@berth/core';
import type {
  StoredScheduleResponse,
  StoredSchedulesPage,
  StoredScheduleView,
} from '../api-types.js';
import { objectBody, queryText, type RequestContext } from '../http/context.js';
import { NEXT_SLOTS, slotsAfter } from './cron-slots.js';

/** Stored schedules the page lists when the request names no `limit`. */
export const DEFAULT_STORED_LIMIT = 50;

/** What an action's body may hold: the schedule's name, and its tenant on an unscoped dashboard. */
const ACTION_FIELDS = ['name', 'tenantId'] as const;
const KNOWN = new Set<string>(ACTION_FIELDS);

/**
 * A record with its next slots (`nextAt`, then the ones after it) and its last enqueued slot's
 * job (`lastSlot`: two reads).
 */
async function storedView(
  control: ScheduleControl,
  record: ScheduleRecord,
): Promise<StoredScheduleView> {
  const options = record.tenantId === undefined ? {} : { tenantId: record.tenantId };
  return toStoredView(record, (await control.lastSlot(record.name, options)) ?? null);
}

function toStoredView(
  record: ScheduleRecord,
  last: StoredScheduleView['last'],
): StoredScheduleView {
  // Field by field, not a spread: the JSON API answers `next` beside `nextAt`, in the order the
  // README documents (its curl examples are checked against it).
  const view: StoredScheduleView = {
    name: record.name,
    ...(record.tenantId === undefined ? {} : { tenantId: record.tenantId }),
    cron: record.cron,
    ...(record.timezone === undefined ? {} : { timezone: record.timezone }),
    job: record.job,
    ...(record.queue === undefined ? {} : { queue: record.queue }),
    payload: record.payload,
    ...(record.priority === undefined ? {} : { priority: record.priority }),
    ...(record.maxAttempts === undefined ? {} : { maxAttempts: record.maxAttempts }),
    paused: record.paused,
    nextAt: record.nextAt,
    next: [],
    last,
    revision: record.revision,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
  // A paused schedule enqueues nothing: its resume picks the next slot after the resume.
  if (record.paused) return view;
  try {
    const after = slotsAfter(record.cron, record.timezone ?? 'UTC', record.nextAt, NEXT_SLOTS - 1);
    return { ...view, next: [record.nextAt, ...after] };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ...view, next: [record.nextAt], error: message };
  }
}

/** The page's `limit`, screened here so a bad one is a 400 naming it, as the jobs table's. */
function limitOf(query: URLSearchParams): number {
  const given = queryText(query, 'limit');
  const limit = given === undefined ? DEFAULT_STORED_LIMIT : Number(given);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SCHEDULE_PAGE) {
    throw jobInvalid('limit', `must be an integer from 1 to ${MAX_SCHEDULE_PAGE}`);
  }
  return limit;
}

/**
 * One page of `driver.schedules.list`. A scoped dashboard lists its tenant's schedules only (a
 * `tenant` filter is ignored there, as the jobs table's); an unscoped one every tenant's, or the
 * `tenant` it names. `after` is a page's `next`, made under the same tenant filter.
 */
export async function storedSchedules(context: RequestContext): Promise<StoredSchedulesPage> {
  const { query } = context;
  const limit = limitOf(query);
  const tenantId = context.tenantId ?? queryText(query, 'tenant');
  const after = queryText(query, 'after');
  const control = scheduleControl(context.options.driver);
  const page = await control.list({
    limit,
    ...(tenantId === undefined ? {} : { tenantId }),
    ...(after === undefined ? {} : { after }),
  });
  return {
    schedules: await Promise.all(page.schedules.map((record) => storedView(control, record))),
    ...(page.next === undefined ? {} : { next: page.next }),
    limit,
  };
}

/**
 * The schedule an action names: `{ name, tenantId? }` in the body (a name may hold a slash,
 * which no path segment can carry). A scoped dashboard acts inside its tenant, which the body
 * may only repeat; another tenant's schedule is out of its reach.
 */
async function targetOf(
  context: RequestContext,
): Promise<{ name: string; options: ScheduleByNameOptions }> {
  const body = await objectBody(context);
  for (const key of Object.keys(body)) {
    if (!KNOWN.has(key)) {
      throw jobInvalid(key, `is not a field this route takes (${ACTION_FIELDS.join(', ')})`);
    }
  }
  const given = body.tenantId;
  if (context.tenantId !== undefined && given !== undefined && given !== context.tenantId) {
    throw jobInvalid(
      'tenantId',
      `is not this dashboard's tenant: it is scoped to ${context.tenantId} and acts only on its schedules`,
    );
  }
  const tenantId = context.tenantId ?? given;
  // The driver screens both as it screens every by-name call (JOB_INVALID naming the field).
  return {
    name: body.name as string,
    options: tenantId === undefined ? {} : { tenantId: tenantId as string },
  };
}

const steer =
  (verb: 'pause' | 'resume') =>
  async (context: RequestContext): Promise<StoredScheduleResponse> => {
    const { name, options } = await targetOf(context);
    const control = scheduleControl(context.options.driver);
    const record = await control[verb](name, options);
    return { schedule: await storedView(control, record) };
  };

/** Stops enqueuing its slots; idempotent. 404 SCHEDULE_NOT_FOUND when none is stored. */
export const pauseStoredSchedule = steer('pause');
/** Enqueues again from the next slot after now; idempotent. 404 SCHEDULE_NOT_FOUND as pause. */
export const resumeStoredSchedule = steer('resume');

/**
 * Removes it for good, answering it as read just before. A schedule that is not stored (also a
 * remove whose answer was lost, sent again) is 404 SCHEDULE_NOT_FOUND, as a deleted job is.
 */
export async function removeStoredSchedule(
  context: RequestContext,
): Promise<StoredScheduleResponse> {
  const { name, options } = await targetOf(context);
  const control = scheduleControl(context.options.driver);
  const stored = await control.get(name, options);
  if (stored === undefined || !(await control.remove(name, options))) {
    throw scheduleNotFound(name, options.tenantId);
  }
  return { schedule: await storedView(control, stored) };
}
