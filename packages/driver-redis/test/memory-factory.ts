import type { DriverFactory } from '@berth/conformance';
import { createMemoryDriver } from '@berth/driver-memory';

/** The reference every redis answer is compared with. */
export const memoryFactory: DriverFactory = async ({ clock, hooks, lifecycleRetention }) => {
  const driver = createMemoryDriver({ clock, hooks, lifecycleRetention });
  return {
    driver,
    sibling: async (context) => createMemoryDriver({ ...context, sameStoreAs: driver }),
    dispose: () => driver.close(),
  };
};
