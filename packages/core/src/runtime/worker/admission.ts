import { createHash } from 'node:crypto';
import type { Driver } from '../../contract/driver.js';
import { MAX_NAME_LENGTH } from '../../contract/limits.js';
import type { ClaimedJob } from '../../contract/records.js';
import type { AnyJobDefinition } from '../jobs/job-types.js';

/** What an admitted attempt holds: its fleet concurrency slot, renewed with its lease. */
export interface Admitted {
  readonly busy: false;
  renew(): Promise<void>;
  release(): Promise<void>;
}

export interface Busy {
  readonly busy: 'concurrency' | 'rate-limit';
}

const nothingHeld: Admitted = {
  busy: false,
  renew: () => Promise.resolve(),
  release: () => Promise.resolve(),
};

/** Slot keys and holders are names (at most MAX_NAME_LENGTH): a longer one is hashed. */
export function boundedName(name: string): string {
  if (name.length <= MAX_NAME_LENGTH) return name;
  const digest = createHash('sha256').update(name).digest('hex');
  return `${name.slice(0, MAX_NAME_LENGTH - digest.length - 1)}#${digest}`;
}

const slotKey = (kind: string, job: string, key: string | undefined) =>
  boundedName(key === undefined ? `berth:${kind}:${job}` : `berth:${kind}:${job}:${key}`);

/**
 * Takes the fleet-wide slots an attempt needs before its handler starts: one of the job's (or
 * its key's) concurrency slots, held until the attempt ends, and one rate-limit slot, which only
 * its ttl (the interval) frees, so at most `limit` attempts start per interval. Answers `busy`
 * holding nothing when either is full.
 */
export async function admit(input: {
  readonly driver: Driver;
  readonly definition: AnyJobDefinition;
  readonly job: ClaimedJob;
  readonly holder: string;
  readonly ttlMs: number;
}): Promise<Admitted | Busy> {
  const { driver, definition, job } = input;
  const { leases } = driver;
  const holder = boundedName(input.holder);
  let admitted = nothingHeld;
  const concurrency = definition.concurrency;
  if (concurrency !== undefined) {
    const key = slotKey(
      'concurrency',
      job.name,
      concurrency.key === undefined
        ? undefined
        : (job.concurrencyKey ?? concurrency.key(job.payload)),
    );
    if (!(await leases.acquireSlot(key, concurrency.limit, holder, input.ttlMs))) {
      return { busy: 'concurrency' };
    }
    admitted = {
      busy: false,
      renew: async () => {
        await leases.renewSlot(key, holder, input.ttlMs);
      },
      release: async () => {
        await leases.releaseSlot(key, holder);
      },
    };
  }
  const rate = definition.rateLimit;
  if (rate === undefined) return admitted;
  let granted: boolean;
  try {
    const key = slotKey('rate', job.name, rate.key?.(job.payload));
    // One holder per start: the claim grows on every claim, so no start renews another's slot.
    const starter = boundedName(`${job.id}:${job.claim}`);
    granted = await leases.acquireSlot(key, rate.limit, starter, rate.intervalMs);
  } catch (error) {
    // A throwing key or driver must not leave the concurrency slot held until its ttl.
    await admitted.release().catch(() => {});
    throw error;
  }
  if (!granted) {
    await admitted.release();
    return { busy: 'rate-limit' };
  }
  return admitted;
}
