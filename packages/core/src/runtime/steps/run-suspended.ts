/** What a suspension asks of the worker: `driver.suspend(fence, { until, waitFor })`. */
export interface Suspension {
  /** The instant the run is due again (a sleep's wake, or an event wait's next look). */
  readonly until: number;
  /** The event whose publish makes the run due at once. */
  readonly waitFor?: string;
  /** With `waitFor`: the instant of the run's last look at the events (`suspend`'s `eventsSince`). */
  readonly eventsSince?: number;
}

/**
 * Thrown out of a handler by `step.sleep`, `step.sleepUntil` and `step.waitForEvent` to unwind
 * it: the run parks (`suspended`) instead of holding a worker. The worker catches it and
 * suspends the job; a handler that catches errors must rethrow it (see {@link isRunSuspended}).
 */
export class RunSuspended extends Error {
  override readonly name = 'RunSuspended';
  readonly until: number;
  readonly waitFor?: string;
  readonly eventsSince?: number;

  constructor(suspension: Suspension) {
    super(
      suspension.waitFor === undefined
        ? `the run sleeps until ${new Date(suspension.until).toISOString()}`
        : `the run waits for event ${JSON.stringify(suspension.waitFor)} until ${new Date(suspension.until).toISOString()}`,
    );
    this.until = suspension.until;
    if (suspension.waitFor !== undefined) this.waitFor = suspension.waitFor;
    if (suspension.eventsSince !== undefined) this.eventsSince = suspension.eventsSince;
  }

  /** The options for `driver.suspend`. */
  toSuspendOptions(): Suspension {
    if (this.waitFor === undefined) return { until: this.until };
    return this.eventsSince === undefined
      ? { until: this.until, waitFor: this.waitFor }
      : { until: this.until, waitFor: this.waitFor, eventsSince: this.eventsSince };
  }
}

/** True when `error` is a step's suspension, which a handler must let through. */
export function isRunSuspended(error: unknown): error is RunSuspended {
  return error instanceof RunSuspended;
}
