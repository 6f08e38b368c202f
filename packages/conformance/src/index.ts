export { describeDriver } from './describe-driver.js';
export { kitGroups } from './groups/index.js';
export type {
  CaseContext,
  DriverFactory,
  DriverUnderTest,
  FactoryContext,
  KitCase,
  KitGroup,
  KitHooks,
  KitOptions,
} from './kit.js';
export { KIT_T0 } from './kit.js';
export { runCase } from './run-case.js';
export type { KitFailure, KitReport } from './run-kit.js';
export { runKit } from './run-kit.js';
