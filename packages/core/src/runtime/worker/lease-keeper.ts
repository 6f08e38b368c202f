import type { Driver } from '../../contract/driver.js';
import type { Fence } from '../../contract/records.js';
import { timeoutsFor } from '../timers.js';
import type { RuntimeLogger } from './logger.js';
import { errorFields } from './logger.js';

export interface LeaseKeeperInput {
  readonly driver: Driver;
  readonly fence: Fence;
  readonly visibilityTimeoutMs: number;
  readonly everyMs: number;
  readonly logger: RuntimeLogger;
  /** Renews whatever else the attempt holds for as long as its lease (concurrency slots). */
  readonly renewAlso?: () => Promise<void>;
  /** The lease is gone: the job was cancelled, or lapsed and was re-claimed. */
  readonly onLost: () => void;
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
      const held = await input.driver.extend(input.fence, input.visibilityTimeoutMs);
      if (stopped) return;
      if (!held) {
        stopped = true;
        input.onLost();
        return;
      }
      await input.renewAlso?.();
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
