import { type DriverFactory, describeDriver } from '@berth/conformance';
import { createMemoryDriver } from '@berth/driver-memory';
import { redisFactory } from './redis-factory.js';
import { redisServerFactory } from './server-factory.js';

const memory: DriverFactory = async ({ clock, hooks }) => {
  const driver = createMemoryDriver({ clock, hooks });
  return {
    driver,
    sibling: async (context) => createMemoryDriver({ ...context, sameStoreAs: driver }),
    dispose: () => driver.close(),
  };
};

describeDriver('redis', redisFactory, { reference: memory, serverFactory: redisServerFactory() });
