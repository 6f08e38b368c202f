import type { Json } from '../../contract/records.js';

/** What a suspension asks of the worker: `driver.suspend(fence, { until, waitFor })`. */
export interface Suspension {
  /** The instant the run is due again (a sleep's wake, or an event wait's next look). */
  readonly until: number;
  /** The event whose publish makes the run due at once. */
  readonly waitFor?: string;
  /** With `waitFor`: the bound of the run's look at the events (`suspend`'s `eventsSince`). */
  readonly eventsSince?: number;
  /** With `eventsSince`: the wait's match, so only an event it would take wakes it. */
  readonly eventsMatch?: Readonly<Record<string, Json>>;
  /** With `eventsSince`: events the run's other waits consumed. */
  readonly eventsExclude?: readonly string[];
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
  readonly eventsMatch?: Readonly<Record<string, Json>>;
  readonly eventsExclude?: readonly string[];

  constructor(suspension: Suspension) {
    super(
      suspension.waitFor === undefined
        ? `the run sleeps until ${new Date(suspension.until).toISOString()}`
        : `the run waits for event ${JSON.stringify(suspension.waitFor)} until ${new Date(suspension.until).toISOString()}`,
    );
    this.until = suspension.until;
    if (suspension.waitFor !== undefined) this.waitFor = suspension.waitFor;
    if (suspension.eventsSince !== undefined) this.eventsSince = suspension.eventsSince;
    if (suspension.eventsMatch !== undefined) this.eventsMatch = suspension.eventsMatch;
    if (suspension.eventsExclude !== undefined) this.eventsExclude = suspension.eventsExclude;
  }

  /** The options for `driver.suspend`, absent fields left out. */
  toSuspendOptions(): Suspension {
    return {
      until: this.until,
      ...(this.waitFor === undefined ? {} : { waitFor: this.waitFor }),
      ...(this.eventsSince === undefined ? {} : { eventsSince: this.eventsSince }),
      ...(this.eventsMatch === undefined ? {} : { eventsMatch: this.eventsMatch }),
      ...(this.eventsExclude === undefined ? {} : { eventsExclude: this.eventsExclude }),
    };
  }
}

/** True when `error` is a step's suspension, which a handler must let through. */
export function isRunSuspended(error: unknown): error is RunSuspended {
  return error instanceof RunSuspended;
}
