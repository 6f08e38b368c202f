import { createHash } from 'node:crypto';
import type { Driver } from '../../contract/driver.js';
import { MAX_NAME_LENGTH } from '../../contract/limits.js';
import type { ClaimedJob } from '../../contract/records.js';
import type { StepRecord } from '../../contract/steps.js';
import type { AnyJobDefinition } from '../jobs/job-types.js';

/** What an admitted attempt holds: its fleet concurrency slot, renewed with its lease. */
export interface Admitted {
  readonly busy: false;
  /** The concurrency slot's key, when the job has a limit (its release wakes the waiters). */
  readonly slot: string | undefined;
  /** Renews the slot; false when it is no longer held (it lapsed and another holder took it). */
  renew(): Promise<boolean>;
  /**
   * False once a renewal answered that the slot is gone, or while the last renewal failed (the
   * slot may lapse unrenewed): it is not handed on then.
   */
  held(): boolean;
  /**
   * When the slot's ttl runs out unless renewed first: its acquire, or its last renewal that
   * answered, plus the ttl (each from when it was sent). Infinite when no slot is held.
   */
  until(): number;
  release(): Promise<void>;
}

export interface Busy {
  readonly busy: 'concurrency' | 'rate-limit';
  /** The concurrency slot the job waits for (its release makes the job due at once). */
  readonly slot: string | undefined;
}

/** The driver failed while taking a slot: the handler never ran, so no attempt is charged. */
export interface Unavailable {
  readonly busy: 'unavailable';
  readonly error: unknown;
}

/** What a job without a concurrency limit holds: nothing to renew or release. */
export const nothingHeld: Admitted = {
  busy: false,
  slot: undefined,
  renew: () => Promise.resolve(true),
  held: () => true,
  until: () => Number.POSITIVE_INFINITY,
  release: () => Promise.resolve(),
};

/** The outcome of {@link admit}. */
export type Admission = Admitted | Busy | Unavailable;

/** Slot keys and holders are names (at most MAX_NAME_LENGTH): a longer one is hashed. */
export function boundedName(name: string): string {
  if (name.length <= MAX_NAME_LENGTH) return name;
  const digest = createHash('sha256').update(name).digest('hex');
  return `${name.slice(0, MAX_NAME_LENGTH - digest.length - 1)}#${digest}`;
}

const slotKey = (kind: string, job: string, key: string | undefined) =>
  boundedName(key === undefined ? `berth:${kind}:${job}` : `berth:${kind}:${job}:${key}`);

/** A job's fleet concurrency slot: its key, and how many may hold it at once. */
export interface ConcurrencySlot {
  readonly key: string;
  readonly limit: number;
}

/**
 * The concurrency slot `job` needs, when its definition has a limit. Runs the user's key
 * function (its throw fails the attempt, holding nothing).
 */
export function concurrencySlotOf(
  definition: AnyJobDefinition,
  job: ClaimedJob,
): ConcurrencySlot | undefined {
  const { concurrency } = definition;
  if (concurrency === undefined) return undefined;
  const key =
    concurrency.key === undefined
      ? undefined
      : (job.concurrencyKey ?? concurrency.key(job.payload));
  return { key: slotKey('concurrency', job.name, key), limit: concurrency.limit };
}

/** The event a concurrency slot's release publishes: jobs bounced off the slot wait for it. */
export const slotFreedEvent = (slot: string): string => boundedName(`berth:slot-freed:${slot}`);

/**
 * A resume of a run a step parked (sleep, event wait): its attempt passed the rate limit when
 * it started, and a resume is no new start. A parked run has a step still sleeping or waiting;
 * a job bounced before it ever ran (key busy) has none, and takes a rate slot as it starts.
 */
const resumesParkedRun = async (
  job: ClaimedJob,
  steps: () => Promise<readonly StepRecord[]>,
): Promise<boolean> =>
  job.resumed &&
  (await steps()).some((step) => step.status === 'sleeping' || step.status === 'waiting');

/**
 * Takes the fleet-wide slots an attempt needs before its handler starts: one of the job's (or
 * its key's) concurrency slots, held until the handler ends, and one rate-limit slot per start
 * (not per resume), which only its ttl (the interval) frees, so at most `limit` attempts start
 * per interval. Answers `busy` holding nothing when either is full, `unavailable` when the
 * driver failed; a throwing key function throws. With `handed`, the concurrency slot is one a
 * finished job of this worker passed on (no driver call); it stays the caller's on a refusal.
 */
export async function admit(input: {
  readonly driver: Driver;
  readonly definition: AnyJobDefinition;
  readonly job: ClaimedJob;
  readonly holder: string;
  readonly ttlMs: number;
  /** The run's stored steps, read once per attempt (the step API reads the same list). */
  readonly steps: () => Promise<readonly StepRecord[]>;
  /** The job's concurrency slot ({@link concurrencySlotOf}), when it has a limit. */
  readonly slot: ConcurrencySlot | undefined;
  /** That slot, handed on by a job of its key that ended on this worker. */
  readonly handed?: Admitted;
}): Promise<Admission> {
  const { driver, definition, job } = input;
  const { leases } = driver;
  const holder = boundedName(input.holder);
  const { rateLimit: rate } = definition;
  const { slot } = input;
  // The user's key functions run first: one that throws fails the attempt, holding nothing.
  const rateKey =
    rate === undefined ? undefined : slotKey('rate', job.name, rate.key?.(job.payload));
  let admitted = nothingHeld;
  // Only a slot taken here is given back here; a handed one goes back to whoever handed it.
  const giveBack = () => (input.handed === undefined ? admitted.release() : Promise.resolve());
  try {
    if (input.handed !== undefined) admitted = input.handed;
    else if (slot !== undefined) {
      const askedAt = driver.clock.now();
      if (!(await leases.acquireSlot(slot.key, slot.limit, holder, input.ttlMs))) {
        return { busy: 'concurrency', slot: slot.key };
      }
      admitted = heldSlot({
        driver,
        slot: slot.key,
        holder,
        ttlMs: input.ttlMs,
        until: askedAt + input.ttlMs,
      });
    }
    if (rate === undefined || rateKey === undefined) return admitted;
    if (await resumesParkedRun(job, input.steps)) return admitted;
    // One holder per start: the claim grows on every claim, so no start renews another's slot.
    const starter = boundedName(`${job.id}:${job.claim}`);
    if (!(await leases.acquireSlot(rateKey, rate.limit, starter, rate.intervalMs))) {
      await giveBack();
      return { busy: 'rate-limit', slot: undefined };
    }
    return admitted;
  } catch (error) {
    // A failing driver must not leave the concurrency slot held until its ttl.
    await giveBack().catch(() => {});
    return { busy: 'unavailable', error };
  }
}

/**
 * A concurrency slot `holder` took, its ttl running out at `until`: renewed and released under
 * that holder's name.
 */
function heldSlot(taken: {
  readonly driver: Driver;
  readonly slot: string;
  readonly holder: string;
  readonly ttlMs: number;
  readonly until: number;
}): Admitted {
  const { driver, slot, holder, ttlMs } = taken;
  let held = true;
  let failing = false;
  let end = taken.until;
  return {
    busy: false,
    slot,
    renew: async () => {
      const at = driver.clock.now();
      let renewed: boolean;
      try {
        renewed = await driver.leases.renewSlot(slot, holder, ttlMs);
      } catch (error) {
        failing = true;
        throw error;
      }
      failing = false;
      if (renewed) end = Math.max(end, at + ttlMs);
      else held = false;
      return renewed;
    },
    held: () => held && !failing,
    until: () => end,
    release: async () => {
      await driver.leases.releaseSlot(slot, holder);
    },
  };
}
