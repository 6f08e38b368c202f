import { type DriverFactory, describeDriver } from '@berth/conformance';
import { createMemoryDriver } from '@berth/driver-memory';
import { natsFactory } from './nats-factory.js';
import { natsServerFactory } from './server-factory.js';

const memory: DriverFactory = async ({ clock, hooks }) => {
  const driver = createMemoryDriver({ clock, hooks });
  return {
    driver,
    sibling: async (context) => createMemoryDriver({ ...context, sameStoreAs: driver }),
    dispose: () => driver.close(),
  };
};

describeDriver('nats', natsFactory, { reference: memory, serverFactory: natsServerFactory() });
