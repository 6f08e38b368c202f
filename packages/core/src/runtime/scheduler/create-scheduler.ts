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
import { enqueueSlot, type PreparedSchedule, readMark } from './slot-enqueue.js';
import { slotInstant } from './slot-id.js';
import { runStoredSchedules } from './stored-pass.js';

/** A leader that stalled for long keeps at most this many of the slots it slept through. */
const MAX_SLOTS_PER_TICK = 1_000;

/**
 * Enqueues each slot of each cron schedule exactly once. Schedulers sharing a lease name elect
 * one leader through `driver.leases`; only the leader enqueues, and it renews its lease before
 * each slot. Every slot has a deterministic job id and idempotency key, and each schedule a mark
 * in `driver.marks` that the slot's enqueue raises in its own atomic change (slot-enqueue.ts):
 * whatever the crash point, a slot is enqueued with its mark or not at all, so the next leader
 * enqueues what the last one did not, and never a slot at or below the mark. The schedules
 * stored by the driver (`client.schedules`) run the same way after those in code, read each tick
 * through the driver's index of due schedules (stored-pass.ts).
 */
export function createScheduler<const S extends readonly ScheduledJob[]>(
  options: SchedulerOptions<S>,
): Scheduler {
  const settings =
    // Each schedule's payload was checked against its own job at compile time (`S`).
    readSchedulerOptions(options as SchedulerOptions);
  const { driver, tickMs, leaseTtlMs, maxSlots, neverRunSlots, leaseName, holderId, schedules } =
    settings;
  const { clock } = driver;
  const logger = settings.logger ?? silentLogger;

  let leading = false;
  // When this scheduler last took the lead: stored schedules' slots before it were missed.
  let leadSince = 0;
  // Set by lead(): the lease was taken or renewed just now, so the next slot needs no renewal.
  let freshLease = false;
  // From stop() until start(): every tick, in flight or asked for later, does nothing more.
  let stopped = false;
  let stopping: Promise<void> = Promise.resolve();
  // The instant up to which each schedule's slots are handled, while this scheduler leads.
  const cursors = new Map<string, number>();

  const dropLead = (): void => {
    leading = false;
    cursors.clear();
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
    if (leading) leadSince = clock.now();
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
    // The latest slot handled (enqueued, or found enqueued) in this tick.
    let current = cursor;
    try {
      let due: readonly number[];
      let mark: number;
      // A schedule no leader ever enqueued (no mark) is new: `neverRun` says what of its past
      // runs; the mark then records that it was seen, so a later lead catches up from there.
      let seen = true;
      if (cursor === undefined) {
        // Without a cursor the lead is new: catch up on the latest slots.
        const stored = await driver.marks.get(schedule.mark);
        seen = stored !== undefined;
        mark = stored ?? Number.NEGATIVE_INFINITY;
        due = schedule.slots.latest(now, seen ? maxSlots : neverRunSlots);
      } else {
        due = schedule.slots.between(cursor, now, MAX_SLOTS_PER_TICK);
        // Read once a tick, so slots already enqueued (their jobs perhaps purged) cost no call.
        mark = due.length === 0 ? 0 : await readMark(driver, schedule);
      }
      for (const slot of due) {
        if (slot <= mark) continue;
        if (!(await holdLead())) return false;
        const answer = await enqueueSlot(driver, schedule, slot);
        current = slot;
        if ('markPassed' in answer) {
          logger.info('schedule slot was enqueued already', {
            schedule: schedule.name,
            slot: slotInstant(slot),
            holderId,
          });
          continue;
        }
        out.push({ schedule: schedule.name, slot, jobId: answer.id, deduped: answer.deduped });
        report(schedule, slot, answer);
      }
      const [latest] = seen ? [] : schedule.slots.latest(now, 1);
      if (latest !== undefined && (await holdLead())) {
        await driver.marks.advance(schedule.mark, latest);
        logger.info('schedule seen for the first time: past slots not run', {
          schedule: schedule.name,
          upTo: slotInstant(latest),
          enqueued: due.length,
        });
      }
    } catch (error) {
      logger.error('schedule mark could not be read or slot enqueued; the next tick tries again', {
        schedule: schedule.name,
        error,
      });
      // The next tick starts after the last slot handled, so the failed one comes again.
      if (current !== undefined) cursors.set(schedule.name, current);
      return true;
    }
    cursors.set(schedule.name, now);
    return true;
  };

  const stored = { driver, logger, maxSlots, holdLead };

  const runTick = async (): Promise<SchedulerTick> => {
    const enqueued: EnqueuedSlot[] = [];
    if (stopped || !(await lead())) return { leader: false, enqueued };
    const now = clock.now();
    for (const schedule of schedules) {
      if (!(await runSchedule(schedule, now, enqueued))) return { leader: leading, enqueued };
    }
    try {
      await runStoredSchedules(stored, now, leadSince, enqueued);
    } catch (error) {
      logger.error('stored schedules could not be read; the next tick tries again', { error });
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
