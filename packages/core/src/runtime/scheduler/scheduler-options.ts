import { randomUUID } from 'node:crypto';
import type { MarkedEnqueueRequest } from '../../contract/records.js';
import { isBerthError } from '../../errors/berth-error.js';
import { configInvalid } from '../../errors/refusals.js';
import { optionExample } from '../../internal/option-example.js';
import { screenEnqueue } from '../../screen/enqueue.js';
import { parseCron } from './cron-slots.js';
import { refuseSchedule } from './schedule-refusals.js';
import type { ScheduleDefinition, SchedulerOptions } from './schedule-types.js';
import type { PreparedSchedule } from './slot-enqueue.js';
import { slotJobId, slotKey, slotMarkName } from './slot-id.js';

const DEFAULT_TICK_MS = 1_000;
const DEFAULT_LEASE_TTL_MS = 30_000;
const DEFAULT_CATCH_UP_SLOTS = 1;
const MAX_CATCH_UP_SLOTS = 1_000;
/** A valid value of each scheduler option, for the example in a CONFIG_INVALID fix. */
const SAMPLES: Readonly<Record<string, string>> = {
  tickMs: '1_000',
  leaseTtlMs: '30_000',
  'catchUp.maxSlots': '1',
};

const refuse = (option: string, reason: string, allowed: string) =>
  configInvalid({
    option,
    reason,
    allowed,
    example: optionExample('createScheduler', option, SAMPLES[option] ?? '...'),
  });

const positiveInteger = (option: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw refuse(
      option,
      `is ${String(value)}; it must be an integer of ms > 0`,
      'must be an integer of ms > 0',
    );
  }
  return value;
};

function prepare(schedule: ScheduleDefinition, index: number): PreparedSchedule {
  const at = `schedules[${index}]`;
  if (typeof schedule.name !== 'string' || schedule.name.length === 0) {
    throw refuseSchedule(
      at,
      'name',
      'is empty or not a string',
      'must be a non-empty string, unique among the schedules',
    );
  }
  const slots = parseCron(at, schedule.cron, schedule.timezone);
  const job = typeof schedule.job === 'string' ? { name: schedule.job } : schedule.job;
  const queue = schedule.queue ?? job.queue;
  const maxAttempts = schedule.maxAttempts ?? job.retry?.maxAttempts;
  const request = (slot: number): MarkedEnqueueRequest => ({
    id: slotJobId(schedule.name, slot),
    name: job.name,
    payload: schedule.payload ?? null,
    idempotencyKey: slotKey(schedule.name, slot),
    ...(queue === undefined ? {} : { queue }),
    ...(schedule.priority === undefined ? {} : { priority: schedule.priority }),
    ...(maxAttempts === undefined ? {} : { maxAttempts }),
    ...(schedule.tenantId === undefined ? {} : { tenantId: schedule.tenantId }),
    advanceMark: { name: slotMarkName(schedule.name), value: slot },
  });
  try {
    // A request the driver would refuse is a configuration error, found now, not at the slot.
    screenEnqueue(request(Date.UTC(2000, 0, 1)), Number.POSITIVE_INFINITY);
  } catch (error) {
    if (!isBerthError(error, 'JOB_INVALID')) throw error;
    // The job's name comes from the schedule's `job`, the mark's from the schedule's name;
    // every other field has its own name.
    const field =
      error.meta.field === 'name'
        ? 'job'
        : error.meta.field === 'advanceMark.name'
          ? 'name'
          : error.meta.field;
    throw refuseSchedule(at, field, error.meta.reason, error.meta.reason);
  }
  return {
    name: schedule.name,
    mark: slotMarkName(schedule.name),
    slots,
    request,
  };
}

/** A scheduler's options, checked (CONFIG_INVALID naming the option) and with defaults. */
export interface SchedulerSettings {
  readonly tickMs: number;
  readonly leaseTtlMs: number;
  readonly maxSlots: number;
  readonly leaseName: string;
  readonly holderId: string;
  readonly schedules: readonly PreparedSchedule[];
}

export function readSchedulerOptions(options: SchedulerOptions): SchedulerSettings {
  const tickMs = positiveInteger('tickMs', options.tickMs, DEFAULT_TICK_MS);
  const leaseTtlMs = positiveInteger('leaseTtlMs', options.leaseTtlMs, DEFAULT_LEASE_TTL_MS);
  if (leaseTtlMs <= tickMs) {
    throw refuse(
      'leaseTtlMs',
      `is ${leaseTtlMs}, not longer than tickMs (${tickMs})`,
      'must be longer than tickMs, so the leader renews before its lease runs out',
    );
  }
  const maxSlots = options.catchUp?.maxSlots ?? DEFAULT_CATCH_UP_SLOTS;
  if (!Number.isInteger(maxSlots) || maxSlots < 0 || maxSlots > MAX_CATCH_UP_SLOTS) {
    const allowed = `must be an integer from 0 to ${MAX_CATCH_UP_SLOTS}`;
    throw refuse('catchUp.maxSlots', `is ${String(maxSlots)}; it ${allowed}`, allowed);
  }
  const leaseName = options.leaseName ?? 'berth.scheduler';
  const holderId = options.holderId ?? `scheduler-${randomUUID()}`;
  const schedules = options.schedules.map(prepare);
  const names = new Set<string>();
  for (const [index, schedule] of schedules.entries()) {
    if (names.has(schedule.name)) {
      throw refuseSchedule(
        `schedules[${index}]`,
        'name',
        `repeats ${JSON.stringify(schedule.name)}`,
        'must be unique among the schedules: it is part of every slot’s job id',
      );
    }
    names.add(schedule.name);
  }

  return { tickMs, leaseTtlMs, maxSlots, leaseName, holderId, schedules };
}
