import { DEFAULT_QUEUE, type ScheduleRecord, type ScheduleSlot } from '@berth/core';
import { clip, escapeLine } from './escape.js';
import type { Align, Colors } from './output.js';
import { showInstant, showJson } from './render.js';

/** The expression and the zone it is read in (UTC when the schedule names none), cut to fit. */
const showCron = (schedule: ScheduleRecord): string =>
  clip(`${schedule.cron} (${schedule.timezone ?? 'UTC'})`, 48);

const paintPaused = (paused: boolean, color: Colors): string =>
  paused ? color.yellow('paused') : 'active';

/**
 * The next slot to enqueue. A paused schedule enqueues none, and its resume starts at the next
 * slot after that moment, so the slot it stored is not shown as if it would run.
 */
const showNext = (schedule: ScheduleRecord, now: number): string | undefined =>
  schedule.paused ? undefined : showInstant(schedule.nextAt, now);

/** `schedules ls`: the TENANT column only when some schedule on the page has a tenant. */
export function scheduleTable(
  schedules: readonly ScheduleRecord[],
  now: number,
  color: Colors,
): { head: string[]; rows: string[][]; align: Align[] } {
  const tenanted = schedules.some((schedule) => schedule.tenantId !== undefined);
  const pick = <T>(cells: readonly [T, T, ...T[]]): T[] =>
    tenanted ? [...cells] : [cells[0], ...cells.slice(2)];
  return {
    head: pick(['NAME', 'TENANT', 'CRON', 'JOB', 'QUEUE', 'STATUS', 'NEXT SLOT', 'REVISION']),
    rows: schedules.map((schedule) =>
      pick([
        escapeLine(schedule.name),
        schedule.tenantId === undefined ? '-' : escapeLine(schedule.tenantId),
        showCron(schedule),
        escapeLine(schedule.job),
        escapeLine(schedule.queue ?? DEFAULT_QUEUE),
        paintPaused(schedule.paused, color),
        showNext(schedule, now) ?? '-',
        String(schedule.revision),
      ]),
    ),
    align: pick(['left', 'left', 'left', 'left', 'left', 'left', 'left', 'right']),
  };
}

/** Every field of a schedule, for `show` (with its last slot) and after a change. */
export function scheduleFields(
  schedule: ScheduleRecord,
  now: number,
  color: Colors,
  last?: ScheduleSlot | null,
): [string, string][] {
  const rows: [string, string | undefined][] = [
    ['name', escapeLine(schedule.name)],
    ['tenant', schedule.tenantId === undefined ? undefined : escapeLine(schedule.tenantId)],
    ['cron', escapeLine(schedule.cron)],
    ['timezone', escapeLine(schedule.timezone ?? 'UTC')],
    ['job', escapeLine(schedule.job)],
    ['queue', escapeLine(schedule.queue ?? DEFAULT_QUEUE)],
    ['payload', showJson(schedule.payload)],
    ['priority', schedule.priority === undefined ? undefined : String(schedule.priority)],
    ['max attempts', schedule.maxAttempts === undefined ? undefined : String(schedule.maxAttempts)],
    ['status', paintPaused(schedule.paused, color)],
    [
      'next slot',
      showNext(schedule, now) ?? 'none while paused (a resume starts at the next slot after it)',
    ],
    [
      'last slot',
      last === undefined
        ? undefined
        : last === null
          ? 'none enqueued yet'
          : `${showInstant(last.slot, now)}, job ${last.jobId} (${last.state ?? 'no longer stored'})`,
    ],
    ['revision', String(schedule.revision)],
    ['created', showInstant(schedule.createdAt, now)],
    ['updated', showInstant(schedule.updatedAt, now)],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== undefined);
}
