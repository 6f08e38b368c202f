import { randomUUID } from 'node:crypto';
import type { Driver } from '../../contract/driver.js';
import { MAX_NAME_LENGTH } from '../../contract/limits.js';
import type { MarkedEnqueueRequest } from '../../contract/records.js';
import { isBerthError } from '../../errors/berth-error.js';
import { describeReceived } from '../../errors/received.js';
import { configInvalid } from '../../errors/refusals.js';
import {
  configArray,
  configDriver,
  configLogger,
  configObject,
  configuring,
} from '../../internal/config-screen.js';
import { optionExample } from '../../internal/option-example.js';
import { screenEnqueue } from '../../screen/enqueue.js';
import type { BackgroundLogger } from '../background-logger.js';
import { parseCron } from './cron-slots.js';
import { refuseSchedule } from './schedule-refusals.js';
import type { ScheduleDefinition, ScheduledJob, SchedulerOptions } from './schedule-types.js';
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
  'catchUp.neverRun': "'none'",
  driver: 'createMemoryDriver()',
  schedules: "[{ name: 'nightly-report', cron: '0 3 * * *', job: report }]",
  logger: 'console',
  leaseName: "'berth.scheduler'",
  holderId: "'scheduler-1'",
};

const OPTIONS_EXAMPLE =
  "const options = { driver, schedules: [{ name: 'nightly-report', cron: '0 3 * * *', job: report }] }; createScheduler(options)";

const example = (option: string): string =>
  optionExample('createScheduler', option, SAMPLES[option] ?? '...');

const refuse = (option: string, reason: string, allowed: string) =>
  configInvalid({
    option,
    reason,
    allowed,
    example: example(option),
  });

const positiveInteger = (option: string, value: unknown, fallback: number): number => {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw refuse(
      option,
      `is ${describeReceived(value)}; it must be an integer of ms > 0`,
      'must be an integer of ms > 0',
    );
  }
  return value;
};

/** The job a schedule names: a bare name, or a definition (its name, queue and attempts). */
function jobOf(at: string, job: unknown): Exclude<ScheduledJob, string> {
  if (typeof job === 'string') return { name: job };
  const definition = job as Partial<Exclude<ScheduledJob, string>> | null | undefined;
  if (
    definition !== null &&
    typeof definition === 'object' &&
    typeof definition.name === 'string'
  ) {
    const retry = definition.retry;
    if (retry === undefined || (retry !== null && typeof retry === 'object')) {
      return definition as Exclude<ScheduledJob, string>;
    }
  }
  throw refuseSchedule(
    at,
    'job',
    `is ${describeReceived(job)}, not a job`,
    'must be a job made by defineJob or declareJob, or a job name',
  );
}

function prepare(given: unknown, index: number): PreparedSchedule {
  const at = `schedules[${index}]`;
  const schedule = configObject(at, given, example('schedules')) as unknown as ScheduleDefinition;
  if (typeof schedule.name !== 'string' || schedule.name.length === 0) {
    throw refuseSchedule(
      at,
      'name',
      'is empty or not a string',
      'must be a non-empty string, unique among the schedules',
    );
  }
  const slots = parseCron(at, schedule.cron, schedule.timezone);
  const job = jobOf(at, schedule.job);
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
  readonly driver: Driver;
  readonly logger: BackgroundLogger | undefined;
  readonly tickMs: number;
  readonly leaseTtlMs: number;
  readonly maxSlots: number;
  /** Slots of its past a never-run schedule runs on a lead (`catchUp.neverRun`; 'none' is 0). */
  readonly neverRunSlots: number;
  readonly leaseName: string;
  readonly holderId: string;
  readonly schedules: readonly PreparedSchedule[];
}

export function readSchedulerOptions(options: SchedulerOptions): SchedulerSettings {
  return configuring('options', OPTIONS_EXAMPLE, () => readOptions(options));
}

function optionalName(option: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value.length > 0 && value.length <= MAX_NAME_LENGTH) {
    return value;
  }
  const allowed = `must be a string of 1 to ${MAX_NAME_LENGTH} characters, or be left out`;
  throw refuse(option, `is ${describeReceived(value)}; it ${allowed}`, allowed);
}

function readOptions(given: SchedulerOptions): SchedulerSettings {
  const options = configObject('options', given, OPTIONS_EXAMPLE);
  const driver = configDriver(options.driver, example('driver'));
  const logger = configLogger(
    options.logger as BackgroundLogger | undefined,
    ['info', 'warn', 'error'],
    example('logger'),
  );
  const tickMs = positiveInteger('tickMs', options.tickMs, DEFAULT_TICK_MS);
  const leaseTtlMs = positiveInteger('leaseTtlMs', options.leaseTtlMs, DEFAULT_LEASE_TTL_MS);
  if (leaseTtlMs <= tickMs) {
    throw refuse(
      'leaseTtlMs',
      `is ${leaseTtlMs}, not longer than tickMs (${tickMs})`,
      'must be longer than tickMs, so the leader renews before its lease runs out',
    );
  }
  const catchUp =
    options.catchUp === undefined
      ? {}
      : configObject('catchUp', options.catchUp, example('catchUp.maxSlots'));
  const maxSlots = catchUp.maxSlots ?? DEFAULT_CATCH_UP_SLOTS;
  if (
    typeof maxSlots !== 'number' ||
    !Number.isInteger(maxSlots) ||
    maxSlots < 0 ||
    maxSlots > MAX_CATCH_UP_SLOTS
  ) {
    const allowed = `must be an integer from 0 to ${MAX_CATCH_UP_SLOTS}`;
    throw refuse('catchUp.maxSlots', `is ${describeReceived(maxSlots)}; it ${allowed}`, allowed);
  }
  const neverRun = catchUp.neverRun ?? 'none';
  const neverRunSlots = neverRun === 'none' ? 0 : neverRun;
  if (
    typeof neverRunSlots !== 'number' ||
    !Number.isInteger(neverRunSlots) ||
    neverRunSlots < 0 ||
    neverRunSlots > MAX_CATCH_UP_SLOTS
  ) {
    const allowed = `must be 'none' or an integer from 0 to ${MAX_CATCH_UP_SLOTS}`;
    throw refuse('catchUp.neverRun', `is ${describeReceived(neverRun)}; it ${allowed}`, allowed);
  }
  const leaseName = optionalName('leaseName', options.leaseName) ?? 'berth.scheduler';
  const holderId = optionalName('holderId', options.holderId) ?? `scheduler-${randomUUID()}`;
  const schedules =
    options.schedules === undefined
      ? []
      : configArray('schedules', options.schedules, example('schedules')).map(prepare);
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

  return {
    driver,
    logger,
    tickMs,
    leaseTtlMs,
    maxSlots,
    neverRunSlots,
    leaseName,
    holderId,
    schedules,
  };
}
