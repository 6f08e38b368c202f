import { createManualClock, type DriverHooks } from '@berth/core';
import type { DriverFactory, KitCase, KitHooks } from './kit.js';
import { KIT_T0 } from './kit.js';

/** Runs one case on a fresh driver, and disposes of the driver whatever the case did. */
export async function runCase(factory: DriverFactory, kitCase: KitCase): Promise<void> {
  const clock = createManualClock(KIT_T0);
  const seams: KitHooks = {};
  const hooks: DriverHooks = {
    afterEnqueueConflict: async () => {
      await seams.afterEnqueueConflict?.();
    },
    afterRequeueCheck: async () => {
      await seams.afterRequeueCheck?.();
    },
  };
  const { driver, dispose } = await factory({ clock, hooks });
  try {
    await kitCase.run({ driver, clock, hooks: seams, t0: KIT_T0, factory });
  } finally {
    await dispose();
  }
}
