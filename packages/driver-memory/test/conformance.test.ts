import { type DriverFactory, describeDriver } from '@berth/conformance';
import { createMemoryDriver } from '../src/index.js';

const memory: DriverFactory = async ({ clock, hooks }) => {
  const driver = createMemoryDriver({ clock, hooks });
  return {
    driver,
    sibling: async (context) => createMemoryDriver({ ...context, sameStoreAs: driver }),
    dispose: () => driver.close(),
  };
};

describeDriver('memory', memory, { reference: memory });
