import { type Clock, createManualClock, type Driver, type DriverHooks } from '@berth/core';
import type { DriverFactory, KitCase, KitHooks, KitOptions } from './kit.js';
import { KIT_LIFECYCLE_RETENTION, KIT_T0 } from './kit.js';

/**
 * Runs one case on a fresh driver, and disposes of the driver (and every sibling the case
 * opened) whatever the case did.
 */
export async function runCase(
  factory: DriverFactory,
  kitCase: KitCase,
  options: KitOptions = {},
): Promise<void> {
  const clock = createManualClock(KIT_T0);
  const seams: KitHooks = {};
  const hooks: DriverHooks = {
    afterEnqueueConflict: async () => {
      await seams.afterEnqueueConflict?.();
    },
    afterRequeueCheck: async () => {
      await seams.afterRequeueCheck?.();
    },
    beforeMarkedEnqueue: async () => {
      await seams.beforeMarkedEnqueue?.();
    },
  };
  const made = await factory({ clock, hooks, lifecycleRetention: KIT_LIFECYCLE_RETENTION });
  const siblings: Driver[] = [];
  const sibling = async (siblingClock: Clock = clock): Promise<Driver> => {
    if (made.sibling === undefined) {
      throw new Error(
        `the ${made.driver.name} factory answers no sibling(): this case needs several drivers over one store`,
      );
    }
    const opened = await made.sibling({
      clock: siblingClock,
      hooks,
      lifecycleRetention: KIT_LIFECYCLE_RETENTION,
    });
    siblings.push(opened);
    return opened;
  };
  try {
    await kitCase.run({
      driver: made.driver,
      clock,
      hooks: seams,
      t0: KIT_T0,
      factory,
      sibling,
      options,
      server: made.server,
    });
  } finally {
    await Promise.allSettled(siblings.map((opened) => opened.close()));
    await made.dispose();
  }
}
