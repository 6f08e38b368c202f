import { openPg } from './support/drivers.js';
import { e2eIdCases } from './support/e2e-id-cases.js';
import { describeE2e } from './support/e2e-suite.js';

describeE2e('pg-ids', openPg, e2eIdCases);
