import type {
  ScheduleByNameOptions,
  ScheduleListOptions,
  SchedulePage,
  ScheduleRecord,
} from '../../contract/schedules.js';
import type { JobState } from '../../contract/states.js';
import type { ScheduleDefinition, ScheduledJob } from '../scheduler/schedule-types.js';

/**
 * A schedule as an app stores it (`client.schedules.upsert`): a schedule as `createScheduler`
 * takes it in code, stored paused or not, with what its first store runs of its past.
 */
export interface ScheduleInput<J extends ScheduledJob = ScheduledJob>
  extends ScheduleDefinition<J> {
  /** Stored paused: nothing is enqueued until `resume`. Default false. */
  readonly paused?: boolean;
  /**
   * What a schedule stored for the first time runs of its past: `'none'` (default: a nightly
   * job added in the afternoon first runs at night) or its latest n slots, enqueued at the
   * scheduler's next tick. Ignored for a schedule already stored.
   */
  readonly catchUp?: 'none' | number;
}

/** What `upsert` answers. */
export interface ScheduleUpsert {
  readonly schedule: ScheduleRecord;
  /** No schedule of the name (and tenant) was stored before. */
  readonly created: boolean;
  /** False when the stored schedule already said all this: nothing was written. */
  readonly changed: boolean;
}

/**
 * Schedules stored by the driver (`client.schedules`, `berth schedules`, the dashboard): every
 * running scheduler enqueues their slots from its next tick, without a restart.
 */
export interface ScheduleControl {
  /**
   * Stores the schedule, or changes the stored one of its name (and tenant). A changed cron
   * expression or zone starts at its next slot after now; other changes keep the next slot.
   * Idempotent: storing what is stored answers `changed: false`, so a call retried after a lost
   * answer answers as the first. JOB_INVALID naming a bad field.
   */
  upsert<const J extends ScheduledJob>(input: ScheduleInput<J>): Promise<ScheduleUpsert>;
  get(name: string, options?: ScheduleByNameOptions): Promise<ScheduleRecord | undefined>;
  /** A page by name, then tenant; pass `next` back as `after`. */
  list(options?: ScheduleListOptions): Promise<SchedulePage>;
  /** Removes it; answers whether this call removed one (a retried remove answers false). */
  remove(name: string, options?: ScheduleByNameOptions): Promise<boolean>;
  /** Stops enqueuing its slots; idempotent. SCHEDULE_NOT_FOUND when none is stored. */
  pause(name: string, options?: ScheduleByNameOptions): Promise<ScheduleRecord>;
  /**
   * Enqueues its slots again from the next one after now (the slots it was paused through are
   * not run); idempotent. SCHEDULE_NOT_FOUND when none is stored.
   */
  resume(name: string, options?: ScheduleByNameOptions): Promise<ScheduleRecord>;
  /**
   * The slot the schedulers last enqueued for it, that slot's job id and the job's state as
   * read now (null once the job was purged or deleted), or `undefined` before its first slot.
   * Two reads: the slot's mark, then the job by its deterministic id. Kept while the schedule is
   * paused; a removed schedule's is kept too, and a schedule stored again under the name and
   * tenant continues from it.
   */
  lastSlot(name: string, options?: ScheduleByNameOptions): Promise<ScheduleSlot | undefined>;
}

/** One enqueued slot of a stored schedule. */
export interface ScheduleSlot {
  /** The slot's instant (epoch ms). */
  readonly slot: number;
  /** The id of the job the slot made (deterministic: every leader's enqueue of it meets it). */
  readonly jobId: string;
  /** The job's state now; null once it was purged or deleted. */
  readonly state: JobState | null;
}
