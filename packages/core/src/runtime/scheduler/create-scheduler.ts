import { randomUUID } from 'node:crypto';
import type { EnqueueRequest } from '../../contract/records.js';
import { isBerthError } from '../../errors/berth-error.js';
import { configInvalid } from '../../errors/refusals.js';
import { optionExample } from '../../internal/option-example.js';
import { screenEnqueue } from '../../screen/enqueue.js';
import { silentLogger } from '../background-logger.js';
import { createSerialLoop } from '../serial-loop.js';
import { type CronSlots, parseCron } from './cron-slots.js';
import { refuseSchedule } from './schedule-refusals.js';
import type {
  EnqueuedSlot,
  ScheduleDefinition,
  ScheduledJob,
  Scheduler,
  SchedulerOptions,
  SchedulerTick,
} from './schedule-types.js';
import { slotInstant, slotJobId, slotKey, slotMarkName } from './slot-id.js';

const DEFAULT_TICK_MS = 1_000;
const DEFAULT_LEASE_TTL_MS = 30_000;
const DEFAULT_CATCH_UP_SLOTS = 1;
const MAX_CATCH_UP_SLOTS = 1_000;
/** A leader that stalled for long keeps at most this many of the slots it slept through. */
const MAX_SLOTS_PER_TICK = 1_000;

interface PreparedSchedule {
  readonly name: string;
  /** The schedule's high-water mark in `driver.marks`: the latest slot enqueued. */
  readonly mark: string;
  readonly slots: CronSlots;
  readonly request: (slot: number) => EnqueueRequest;
}

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
  const request = (slot: number): EnqueueRequest => ({
    id: slotJobId(schedule.name, slot),
    name: job.name,
    payload: schedule.payload ?? null,
    idempotencyKey: slotKey(schedule.name, slot),
    ...(queue === undefined ? {} : { queue }),
    ...(schedule.priority === undefined ? {} : { priority: schedule.priority }),
    ...(maxAttempts === undefined ? {} : { maxAttempts }),
    ...(schedule.tenantId === undefined ? {} : { tenantId: schedule.tenantId }),
  });
  try {
    // A request the driver would refuse is a configuration error, found now, not at the slot.
    screenEnqueue(request(Date.UTC(2000, 0, 1)), Number.POSITIVE_INFINITY);
  } catch (error) {
    if (!isBerthError(error, 'JOB_INVALID')) throw error;
    // The job's name comes from the schedule's `job`; every other field has its own name.
    const field = error.meta.field === 'name' ? 'job' : error.meta.field;
    throw refuseSchedule(at, field, error.meta.reason, error.meta.reason);
  }
  return { name: schedule.name, mark: slotMarkName(schedule.name), slots, request };
}

/**
 * Enqueues each slot of each cron schedule once. Schedulers sharing a lease name elect one
 * leader through `driver.leases`; only the leader enqueues. Every slot has a deterministic job
 * id and idempotency key, and each schedule a high-water mark in `driver.marks` raised after
 * each enqueue: no tick (a catch-up after a failover included) enqueues a slot at or below it,
 * so a slot is never enqueued twice, even once retention purged its job.
 */
export function createScheduler<const S extends readonly ScheduledJob[]>(
  options: SchedulerOptions<S>,
): Scheduler {
  const { driver } = options;
  const { clock } = driver;
  const logger = options.logger ?? silentLogger;
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
  const schedules = (options.schedules as readonly ScheduleDefinition[]).map(prepare);
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

  let leading = false;
  // The instant up to which each schedule's slots are handled, while this scheduler leads.
  const cursors = new Map<string, number>();

  const lead = async (): Promise<boolean> => {
    if (leading && (await driver.leases.renew(leaseName, holderId, leaseTtlMs))) return true;
    if (leading) logger.warn('scheduler lost the lead', { holderId, leaseName });
    leading = false;
    cursors.clear();
    leading = await driver.leases.acquire(leaseName, holderId, leaseTtlMs);
    if (leading) logger.info('scheduler took the lead', { holderId, leaseName });
    return leading;
  };

  /** The slots of `schedule` due now and above its mark: none is ever enqueued twice. */
  const dueSlots = async (schedule: PreparedSchedule, now: number): Promise<number[]> => {
    const cursor = cursors.get(schedule.name);
    // Without a cursor the lead is new: catch up on the latest slots.
    const due =
      cursor === undefined
        ? schedule.slots.latest(now, maxSlots)
        : schedule.slots.between(cursor, now, MAX_SLOTS_PER_TICK);
    if (due.length === 0) return due;
    // The mark outlives the slot's job (retention may have purged it, so its id would not
    // dedupe) and sees what another leader enqueued.
    const mark = await driver.marks.get(schedule.mark);
    return mark === undefined ? due : due.filter((slot) => slot > mark);
  };

  const runSchedule = async (schedule: PreparedSchedule, now: number, out: EnqueuedSlot[]) => {
    let handled = cursors.get(schedule.name);
    let due: number[];
    try {
      due = await dueSlots(schedule, now);
    } catch (error) {
      logger.error('schedule mark could not be read', { schedule: schedule.name, error });
      return;
    }
    for (const slot of due) {
      try {
        const answer = await driver.enqueue(schedule.request(slot));
        // Enqueue first, then raise the mark: a crash between the two leaves the job id to
        // dedupe the next leader's retry.
        await driver.marks.advance(schedule.mark, slot);
        out.push({ schedule: schedule.name, slot, jobId: answer.id, deduped: answer.deduped });
        handled = slot;
        if (!answer.deduped) {
          logger.info('schedule slot enqueued', {
            schedule: schedule.name,
            slot: slotInstant(slot),
            jobId: answer.id,
          });
        }
      } catch (error) {
        logger.error('schedule slot could not be enqueued', {
          schedule: schedule.name,
          slot: slotInstant(slot),
          error,
        });
        // The cursor stays before this slot, so the next tick tries it again.
        if (handled !== undefined) cursors.set(schedule.name, handled);
        return;
      }
    }
    cursors.set(schedule.name, now);
  };

  const runTick = async (): Promise<SchedulerTick> => {
    if (!(await lead())) return { leader: false, enqueued: [] };
    const now = clock.now();
    const enqueued: EnqueuedSlot[] = [];
    for (const schedule of schedules) await runSchedule(schedule, now, enqueued);
    return { leader: true, enqueued };
  };

  // Ticks never overlap: a tick asked for while one runs starts after it.
  const loop = createSerialLoop({
    clock,
    intervalMs: tickMs,
    task: runTick,
    onError: (error) => logger.error('scheduler tick failed', { holderId, error }),
  });

  return {
    holderId,
    async start() {
      // An unmigrated or unreachable backend fails the start at once, not every tick after it.
      await driver.check();
      await loop.start();
    },
    async stop() {
      await loop.stop();
      if (leading) {
        leading = false;
        cursors.clear();
        await driver.leases.release(leaseName, holderId).catch((error: unknown) => {
          logger.warn('scheduler could not release its lease', { holderId, error });
        });
      }
    },
    tick: loop.runNow,
    isLeader: () => leading,
  };
}
