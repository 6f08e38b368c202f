import type { EnqueueResult } from '../../contract/records.js';
import { silentLogger } from '../background-logger.js';
import { createSerialLoop } from '../serial-loop.js';
import type {
  EnqueuedSlot,
  ScheduledJob,
  Scheduler,
  SchedulerOptions,
  SchedulerTick,
} from './schedule-types.js';
import { readSchedulerOptions } from './scheduler-options.js';
import {
  claimSlot,
  confirmSlot,
  enqueueClaimed,
  highWater,
  type PreparedSchedule,
  readMarks,
  unconfirmed,
} from './slot-claims.js';
import { slotInstant } from './slot-id.js';

/** A leader that stalled for long keeps at most this many of the slots it slept through. */
const MAX_SLOTS_PER_TICK = 1_000;

/**
 * Enqueues each slot of each cron schedule once. Schedulers sharing a lease name elect one
 * leader through `driver.leases`; only the leader enqueues, and it renews its lease before each
 * slot. Every slot has a deterministic job id and idempotency key. Each schedule has two marks
 * in `driver.marks`: a leader claims a slot (raises the claim mark, which one of racing leaders
 * does) before enqueuing it and confirms it (raises the done mark) after. No tick enqueues a
 * slot at or below the claim mark, so a slot is never enqueued twice, even once retention purged
 * its job; a claimed slot left unconfirmed by a dead leader is settled as slot-claims.ts says.
 */
export function createScheduler<const S extends readonly ScheduledJob[]>(
  options: SchedulerOptions<S>,
): Scheduler {
  const { driver } = options;
  const { clock } = driver;
  const logger = options.logger ?? silentLogger;
  const { tickMs, leaseTtlMs, maxSlots, leaseName, holderId, schedules } =
    // Each schedule's payload was checked against its own job at compile time (`S`).
    readSchedulerOptions(options as SchedulerOptions);

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
