import { type DriverFactory, describeDriver, inProcessStore } from '@berth/conformance';
import { kitBudget } from '@berth/test-servers';
import { createMemoryDriver } from '../src/index.js';

const memory: DriverFactory = async ({ clock, hooks, lifecycleRetention }) => {
  const driver = createMemoryDriver({ clock, hooks, lifecycleRetention });
  return {
    driver,
    sibling: async (context) => createMemoryDriver({ ...context, sameStoreAs: driver }),
    dispose: () => driver.close(),
    // The store lives in this process: there is no server for group restart to take away.
    server: inProcessStore,
  };
};

describeDriver('memory', memory, { reference: memory, ...kitBudget('server') });
