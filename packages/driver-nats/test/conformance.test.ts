import { describeDriver } from '@berth/conformance';
import { memoryFactory } from './memory-factory.js';
import { natsFactory } from './nats-factory.js';
import { natsServerFactory } from './server-factory.js';

describeDriver('nats', natsFactory, {
  reference: memoryFactory,
  ...natsServerFactory(),
});
