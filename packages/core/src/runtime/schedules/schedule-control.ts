import { isDeepStrictEqual } from 'node:util';
import type { Driver } from '../../contract/driver.js';
import type {
  ScheduleByNameOptions,
  ScheduleRecord,
  ScheduleWrite,
} from '../../contract/schedules.js';
import { BerthError } from '../../errors/berth-error.js';
import { jobInvalid } from '../../errors/refusals.js';
import { cronProblem, cronSlots } from '../../internal/cron.js';
import {
  screenInteger,
  screening,
  screenJson,
  screenName,
  screenObject,
  screenTenantOption,
} from '../../screen/values.js';
import { storedMarkName, storedSlotJobId } from './schedule-names.js';
import type { ScheduleControl, ScheduleInput, ScheduleUpsert } from './schedule-types.js';
import { writeOf } from './schedule-write.js';

/** Reads and writes one change tries before giving up on a schedule others keep changing. */
const TRIES = 16;
/** The most past slots a first store may ask for. */
const MAX_CATCH_UP = 1_000;

const INPUT_FIELDS = new Set([
  'name',
  'cron',
  'timezone',
  'job',
  'payload',
  'queue',
  'priority',
  'maxAttempts',
  'tenantId',
  'paused',
  'catchUp',
]);

/** SCHEDULE_NOT_FOUND for a by-name call that found nothing. */
export const scheduleNotFound = (name: string, tenantId: string | undefined) =>
  new BerthError({
    code: 'SCHEDULE_NOT_FOUND',
    detail: `no schedule ${JSON.stringify(name)} is stored${
      tenantId === undefined ? '' : ` for tenant ${JSON.stringify(tenantId)}`
    }`,
    meta: { name, ...(tenantId === undefined ? {} : { tenantId }) },
  });

/** A schedule that kept changing under every try: another writer is looping on it. */
const keptChanging = (name: string) =>
  new BerthError({
    code: 'DRIVER_UNAVAILABLE',
    detail: `schedule ${JSON.stringify(name)} changed under each of ${TRIES} tries to change it`,
    fix: 'find the process rewriting this schedule in a loop (berth schedules show <name> shows its revision climbing); then call again',
    meta: { driver: 'schedules', operation: 'change a schedule' },
  });

/** The job a schedule names: a bare name, or a definition's name, queue and attempts. */
function jobOf(job: unknown): { name: string; queue?: string; maxAttempts?: number } {
  if (typeof job === 'string') return { name: job };
  const definition = job as { name?: unknown; queue?: unknown; retry?: { maxAttempts?: unknown } };
  if (
    definition !== null &&
    typeof definition === 'object' &&
    typeof definition.name === 'string'
  ) {
    return {
      name: definition.name,
      ...(typeof definition.queue === 'string' ? { queue: definition.queue } : {}),
      ...(typeof definition.retry?.maxAttempts === 'number'
        ? { maxAttempts: definition.retry.maxAttempts }
        : {}),
    };
  }
  throw jobInvalid('job', 'must be a job made by defineJob or declareJob, or a job name');
}

interface ScreenedInput {
  /** Everything but `nextAt`, which depends on what is stored. */
  readonly write: Omit<ScheduleWrite, 'nextAt'>;
  readonly catchUp: number;
}

const screenInput = screening('schedule', (given: unknown): ScreenedInput => {
  const input = screenObject('schedule', given);
  for (const key of Object.keys(input)) {
    if (!INPUT_FIELDS.has(key)) throw jobInvalid(key, 'is not a schedule field');
  }
  const timezone =
    input.timezone === undefined ? undefined : screenName('timezone', input.timezone);
  const problem = cronProblem(input.cron, timezone);
  if (problem !== undefined) throw jobInvalid(problem.field, problem.reason);
  const job = jobOf(input.job);
  const queue = input.queue ?? job.queue;
  const maxAttempts = input.maxAttempts ?? job.maxAttempts;
  if (input.paused !== undefined && typeof input.paused !== 'boolean') {
    throw jobInvalid('paused', 'must be a boolean');
  }
  const catchUp =
    input.catchUp === undefined || input.catchUp === 'none'
      ? 0
      : screenInteger('catchUp', input.catchUp, 0, MAX_CATCH_UP);
  return {
    write: {
      name: screenName('name', input.name),
      ...(input.tenantId === undefined ? {} : { tenantId: screenName('tenantId', input.tenantId) }),
      cron: input.cron as string,
      ...(timezone === undefined ? {} : { timezone }),
      job: job.name,
      ...(queue === undefined ? {} : { queue: queue as string }),
      // Compared with what is stored, so copied as a backend stores it.
      payload:
        input.payload === undefined
          ? null
          : screenJson('payload', input.payload, Number.POSITIVE_INFINITY).value,
      ...(input.priority === undefined ? {} : { priority: input.priority as number }),
      ...(maxAttempts === undefined ? {} : { maxAttempts: maxAttempts as number }),
      paused: input.paused === true,
    },
    catchUp,
  };
});

/** The tenant a by-name call names; JOB_INVALID for options that are no plain object. */
const tenantOf = screening('options', screenTenantOption);

/** `client.schedules`: reads, decides `nextAt`, and writes at the revision it read. */
export function scheduleControl(driver: Driver): ScheduleControl {
  const { schedules, clock } = driver;
  const byName = (tenantId: string | undefined) => (tenantId === undefined ? {} : { tenantId });

  /** Reads the schedule and writes what `change` makes of it, again while another write wins. */
  const change = async <T>(
    name: string,
    tenantId: string | undefined,
    decide: (stored: ScheduleRecord | undefined) => ScheduleWrite | { readonly answer: T },
    answer: (stored: ScheduleRecord, before: ScheduleRecord | undefined) => T,
  ): Promise<T> => {
    for (let attempt = 0; attempt < TRIES; attempt += 1) {
      const stored = await schedules.get(name, byName(tenantId));
      const decided = decide(stored);
      if ('answer' in decided) return decided.answer;
      const written = await schedules.put(decided, stored?.revision ?? 0);
      if (written !== undefined) return answer(written, stored);
    }
    throw keptChanging(name);
  };

  const setPaused = (name: string, options: ScheduleByNameOptions | undefined, paused: boolean) => {
    const tenantId = tenantOf(options);
    return change(
      name,
      tenantId,
      (stored) => {
        if (stored === undefined) throw scheduleNotFound(name, tenantId);
        if (stored.paused === paused) return { answer: stored };
        // A resume starts at the next slot: the slots it was paused through are not run.
        const nextAt = paused
          ? stored.nextAt
          : cronSlots(stored.cron, stored.timezone).next(clock.now());
        return { ...writeOf(stored), paused, nextAt };
      },
      (written) => written,
    );
  };

  return {
    async upsert(input: ScheduleInput): Promise<ScheduleUpsert> {
      const { write, catchUp } = screenInput(input);
      const slots = cronSlots(write.cron, write.timezone);
      return change<ScheduleUpsert>(
        write.name,
        write.tenantId,
        (stored) => {
          if (
            stored !== undefined &&
            isDeepStrictEqual(writeOf(stored), { ...write, nextAt: stored.nextAt })
          ) {
            return { answer: { schedule: stored, created: false, changed: false } };
          }
          const now = clock.now();
          // The stored next slot stands unless the slots changed or a resume starts them anew.
          const sameSlots =
            stored !== undefined &&
            stored.cron === write.cron &&
            stored.timezone === write.timezone &&
            !(stored.paused && !write.paused);
          const nextAt =
            stored === undefined
              ? (slots.latest(now, catchUp)[0] ?? slots.next(now))
              : sameSlots
                ? stored.nextAt
                : slots.next(now);
          return { ...write, nextAt };
        },
        (schedule, before) => ({ schedule, created: before === undefined, changed: true }),
      );
    },
    get: (name, options) => schedules.get(name, options),
    list: (options) => schedules.list(options),
    async remove(name, options) {
      for (let attempt = 0; attempt < TRIES; attempt += 1) {
        const stored = await schedules.get(name, options);
        if (stored === undefined) return false;
        if (await schedules.remove(name, stored.revision, options)) return true;
      }
      throw keptChanging(name);
    },
    pause: (name, options) => setPaused(name, options, true),
    resume: (name, options) => setPaused(name, options, false),
    async lastSlot(name, options) {
      const screened = screenName('name', name);
      const tenantId = tenantOf(options);
      const slot = await driver.marks.get(storedMarkName(screened, tenantId));
      if (slot === undefined) return undefined;
      const jobId = storedSlotJobId(screened, tenantId, slot);
      const job = await driver.get(jobId, byName(tenantId));
      return { slot, jobId, state: job?.state ?? null };
    },
  };
}
