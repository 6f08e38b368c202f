/** Every state a job row can be in. */
export const JOB_STATES = [
  'ready',
  'delayed',
  'running',
  'suspended',
  'completed',
  'failed',
  'dead',
  'cancelled',
] as const;

export type JobState = (typeof JOB_STATES)[number];

/** Still work: queued, waiting on a time, held by a worker, or parked on a sleep or an event. */
export const LIVE_STATES: ReadonlySet<JobState> = new Set<JobState>([
  'ready',
  'delayed',
  'running',
  'suspended',
]);

/** Settled for good. Only these are purged, and only these carry `finishedAt`. */
export const TERMINAL_STATES: ReadonlySet<JobState> = new Set<JobState>([
  'completed',
  'failed',
  'dead',
  'cancelled',
]);

/** The states `requeue` accepts. */
export const REQUEUEABLE_STATES: ReadonlySet<JobState> = new Set<JobState>([
  'failed',
  'dead',
  'cancelled',
]);

export const isJobState = (value: unknown): value is JobState =>
  typeof value === 'string' && (JOB_STATES as readonly string[]).includes(value);

/**
 * The state a read reports. A `delayed` or `suspended` row whose `runAt` has come reads as
 * `ready`, whether or not the driver has promoted it yet.
 */
export function effectiveState(state: JobState, runAt: number, now: number): JobState {
  return (state === 'delayed' || state === 'suspended') && runAt <= now ? 'ready' : state;
}
