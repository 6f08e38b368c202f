import { randomUUID } from 'node:crypto';
import type { EnqueueRequest, EnqueueResult } from '../../contract/records.js';
import { isBerthError } from '../../errors/berth-error.js';
import { configInvalid } from '../../errors/refusals.js';
import { optionExample } from '../../internal/option-example.js';
import { screenEnqueue } from '../../screen/enqueue.js';
import { silentLogger } from '../background-logger.js';
import { createSerialLoop } from '../serial-loop.js';
import { parseCron } from './cron-slots.js';
import { refuseSchedule } from './schedule-refusals.js';
import type {
  EnqueuedSlot,
  ScheduleDefinition,
  Scheduler,
  SchedulerOptions,
  SchedulerTick,
} from './schedule-types.js';
import {
  claimSlot,
  confirmSlot,
  enqueueClaimed,
  highWater,
  type PreparedSchedule,
  readMarks,
  unconfirmed,
} from './slot-claims.js';
import { slotClaimMarkName, slotInstant, slotJobId, slotKey, slotMarkName } from './slot-id.js';

const DEFAULT_TICK_MS = 1_000;
const DEFAULT_LEASE_TTL_MS = 30_000;
const DEFAULT_CATCH_UP_SLOTS = 1;
const MAX_CATCH_UP_SLOTS = 1_000;
/** A leader that stalled for long keeps at most this many of the slots it slept through. */
const MAX_SLOTS_PER_TICK = 1_000;

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
  return {
    name: schedule.name,
    doneMark: slotMarkName(schedule.name),
    claimMark: slotClaimMarkName(schedule.name),
    slots,
    tenantId: schedule.tenantId,
    request,
  };
}

/**
 * Enqueues each slot of each cron schedule once. Schedulers sharing a lease name elect one
 * leader through `driver.leases`; only the leader enqueues. Every slot has a deterministic job
 * id and idempotency key, and each schedule a high-water mark in `driver.marks` raised after
 * each enqueue: no tick (a catch-up after a failover included) enqueues a slot at or below it,
 * so a slot is never enqueued twice, even once retention purged its job.
 */
export function createScheduler(options: SchedulerOptions): Scheduler {
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

  let leading = false;
  // Set by lead(): the lease was taken or renewed just now, so the next slot needs no renewal.
  let freshLease = false;
  // From stop() until start(): every tick, in flight or asked for later, does nothing more.
  let stopped = false;
  let stopping: Promise<void> = Promise.resolve();
  // The instant up to which each schedule's slots are handled, while this scheduler leads.
  const cursors = new Map<string, number>();
  // A slot this leader claimed whose enqueue failed: only it may enqueue the slot, next tick.
  const pending = new Map<string, number>();

  const dropLead = (): void => {
    leading = false;
    cursors.clear();
    pending.clear();
  };

  const lead = async (): Promise<boolean> => {
    if (leading && (await driver.leases.renew(leaseName, holderId, leaseTtlMs))) {
      freshLease = true;
      return true;
    }
    if (leading) logger.warn('scheduler lost the lead', { holderId, leaseName });
    dropLead();
    leading = await driver.leases.acquire(leaseName, holderId, leaseTtlMs);
    freshLease = leading;
    if (leading) logger.info('scheduler took the lead', { holderId, leaseName });
    return leading;
  };

  /**
   * Before each slot: still running and still leading. A tick that outlasted its lease (slow
   * driver calls) stops here, instead of enqueuing beside the leader that took over.
   */
  const holdLead = async (): Promise<boolean> => {
    if (stopped) return false;
    if (freshLease) {
      freshLease = false;
      return true;
    }
    try {
      if (await driver.leases.renew(leaseName, holderId, leaseTtlMs)) return true;
    } catch (error) {
      // Unknown whether it still leads: stop this tick; the next one renews or gives up.
      logger.error('scheduler could not renew its lease', { holderId, leaseName, error });
      return false;
    }
    logger.warn('scheduler lost the lead', { holderId, leaseName });
    dropLead();
    return false;
  };

  const report = (schedule: PreparedSchedule, slot: number, answer: EnqueueResult) => {
    if (answer.deduped) return;
    logger.info('schedule slot enqueued', {
      schedule: schedule.name,
      slot: slotInstant(slot),
      jobId: answer.id,
    });
  };

  /** Enqueues the due slots of one schedule; false when the tick must stop (lead lost, stop). */
  const runSchedule = async (
    schedule: PreparedSchedule,
    now: number,
    out: EnqueuedSlot[],
  ): Promise<boolean> => {
    const cursor = cursors.get(schedule.name);
    const retry = pending.get(schedule.name);
    // Without a cursor the lead is new: catch up on the latest slots.
    const due =
      cursor === undefined
        ? schedule.slots.latest(now, maxSlots)
        : schedule.slots.between(cursor, now, MAX_SLOTS_PER_TICK);
    if (due.length === 0 && cursor !== undefined && retry === undefined) return true;
    // The latest slot handled (enqueued, or claimed by another leader) in this tick.
    let current = cursor;
    const at = (slot: number) => ({ schedule: schedule.name, slot: slotInstant(slot) });
    try {
      // The marks outlive the slots' jobs (retention may purge them, so their ids would not
      // dedupe) and show what other leaders claimed.
      const marks = await readMarks(driver, schedule);
      const open = unconfirmed(marks);
      if (retry !== undefined) {
        if (!(await holdLead())) return false;
        const answer = await enqueueClaimed(driver, schedule, retry, logger);
        pending.delete(schedule.name);
        out.push({
          schedule: schedule.name,
          slot: retry,
          jobId: answer.id,
          deduped: answer.deduped,
        });
        report(schedule, retry, answer);
      } else if (open !== undefined) {
        await confirmSlot(driver, schedule, open, logger);
      }
      const high = highWater(marks);
      for (const slot of due) {
        if (slot <= high) continue;
        if (!(await holdLead())) return false;
        // Claim first: of racing leaders one claims each slot, and a claimed slot is never
        // enqueued by anyone else, even once its job is purged.
        const claimed = await claimSlot(driver, schedule, slot);
        current = slot;
        if (!claimed) {
          logger.warn('schedule slot was claimed by another leader', { ...at(slot), holderId });
          continue;
        }
        pending.set(schedule.name, slot);
        const answer = await enqueueClaimed(driver, schedule, slot, logger);
        pending.delete(schedule.name);
        out.push({ schedule: schedule.name, slot, jobId: answer.id, deduped: answer.deduped });
        report(schedule, slot, answer);
      }
    } catch (error) {
      const slot = pending.get(schedule.name);
      logger.error(
        slot === undefined
          ? 'schedule marks could not be read or raised'
          : 'schedule slot could not be enqueued; this leader tries it again next tick',
        slot === undefined ? { schedule: schedule.name, error } : { ...at(slot), error },
      );
      // The next tick starts after the last slot handled: a slot whose claim failed comes
      // again, a claimed one is retried by this leader alone.
      if (current !== undefined) cursors.set(schedule.name, current);
      return true;
    }
    cursors.set(schedule.name, now);
    return true;
  };

  const runTick = async (): Promise<SchedulerTick> => {
    const enqueued: EnqueuedSlot[] = [];
    if (stopped || !(await lead())) return { leader: false, enqueued };
    const now = clock.now();
    for (const schedule of schedules) {
      if (!(await runSchedule(schedule, now, enqueued))) break;
    }
    return { leader: leading, enqueued };
  };

  // Ticks never overlap: a tick asked for while one runs starts after it.
  const loop = createSerialLoop({
    clock,
    intervalMs: tickMs,
    task: runTick,
    onError: (error) => logger.error('scheduler tick failed', { holderId, error }),
  });

  const halt = async (): Promise<void> => {
    await stopping;
    // The tick in flight stops at its next slot; one asked for after this does nothing.
    await loop.stop();
    if (!leading) return;
    dropLead();
    await driver.leases.release(leaseName, holderId).catch((error: unknown) => {
      logger.warn('scheduler could not release its lease', { holderId, error });
    });
  };

  return {
    holderId,
    async start() {
      // A start racing a stop begins after it: one loop, and the stop's release comes first.
      await stopping;
      // An unmigrated or unreachable backend fails the start at once, not every tick after it.
      await driver.check();
      stopped = false;
      await loop.start();
    },
    stop() {
      stopped = true;
      const done = halt();
      stopping = done;
      return done;
    },
    tick: loop.runNow,
    isLeader: () => leading,
  };
}
