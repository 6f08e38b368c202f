import { describeDriver } from '@berth/conformance';
import { kitBudget } from '@berth/test-servers';
import { memoryFactory } from './memory-factory.js';
import { redisFactory } from './redis-factory.js';
import { redisServerFactory } from './server-factory.js';

describeDriver('redis', redisFactory, {
  reference: memoryFactory,
  ...redisServerFactory(),
  ...kitBudget('server'),
});
