import { openRedis } from './support/drivers.js';
import { e2eCases } from './support/e2e-cases.js';
import { describeE2e } from './support/e2e-suite.js';

describeE2e('redis', openRedis, e2eCases);
