import { describeDriver } from '@berth/conformance';
import { kitBudget } from '@berth/test-servers';
import { memoryFactory } from './memory-factory.js';
import { natsFactory } from './nats-factory.js';
import { natsServerFactory } from './server-factory.js';

describeDriver('nats', natsFactory, {
  reference: memoryFactory,
  ...natsServerFactory(),
  ...kitBudget('server'),
});
