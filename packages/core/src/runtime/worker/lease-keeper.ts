import type { Driver } from '../../contract/driver.js';
import type { Fence } from '../../contract/records.js';
import { timeoutsFor } from '../timers.js';
import type { RuntimeLogger } from './logger.js';
import { errorFields } from './logger.js';
import type { LeaseClock } from './settle-retry.js';

export interface LeaseKeeperInput {
  readonly driver: Driver;
  readonly fence: Fence;
  readonly visibilityTimeoutMs: number;
  readonly everyMs: number;
  readonly logger: RuntimeLogger;
  /** Moved to each renewal's new end. */
  readonly lease: LeaseClock;
  /**
   * Renews whatever else the attempt holds for as long as its lease (concurrency slots);
   * answering false (the slot is gone) ends the attempt as a lost lease does.
   */
  readonly renewAlso?: () => Promise<boolean>;
  /**
   * The lease is gone (the job was cancelled, or lapsed and was re-claimed), or the attempt's
   * concurrency slot is (`slot`: the worker stalled past its ttl and another holder took it).
   */
  readonly onLost: (what: 'lease' | 'slot') => void;
}

/**
 * Renews one attempt's lease every `everyMs` on the driver's clock while its handler runs.
 * `extend` answering false means the fence no longer holds; a renewal that throws is logged and
 * tried again next time (the fence, not this timer, is what keeps a stale worker from writing).
 */
export function keepLease(input: LeaseKeeperInput): { stop(): void } {
  const schedule = timeoutsFor(input.driver.clock);
  let stopped = false;
  let cancel = (): void => {};

  const renew = async (): Promise<void> => {
    try {
      const at = input.driver.clock.now();
      const held = await input.driver.extend(input.fence, input.visibilityTimeoutMs);
      if (stopped) return;
      if (held) input.lease.until = at + input.visibilityTimeoutMs;
      const lost = !held ? 'lease' : (await input.renewAlso?.()) === false ? 'slot' : undefined;
      if (lost !== undefined) {
        if (stopped) return;
        stopped = true;
        input.onLost(lost);
        return;
      }
    } catch (error) {
      input.logger.warn('lease renewal failed; trying again', errorFields(error));
    }
    arm();
  };

  const arm = (): void => {
    if (stopped) return;
    cancel = schedule(() => void renew(), input.everyMs);
  };

  arm();
  return {
    stop() {
      stopped = true;
      cancel();
    },
  };
}
