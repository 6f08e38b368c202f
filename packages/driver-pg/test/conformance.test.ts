import { describeDriver } from '@berth/conformance';
import { memoryFactory } from './memory-factory.js';
import { pgFactory } from './pg-factory.js';
import { pgServerFactory } from './server-factory.js';

describeDriver('pg', pgFactory, {
  reference: memoryFactory,
  inAppTransaction: true,
  serverFactory: pgServerFactory(),
});
