export type { ConnectionErrorsOptions } from './connection/describe-connection-errors.js';
export { describeConnectionErrors } from './connection/describe-connection-errors.js';
export { crashEnv } from './crash/crash-env.js';
export type { CrashRecoveryOptions, CrashTarget } from './crash/describe-crash-recovery.js';
export { describeCrashRecovery } from './crash/describe-crash-recovery.js';
export { describeDriver } from './describe-driver.js';
export type { OpenInstance } from './describe-shared-cursors.js';
export { describeSharedCursors } from './describe-shared-cursors.js';
export type { DifferentialOptions } from './differential/run.js';
export { runDifferential } from './differential/run.js';
export type { GoldenScenarioName } from './golden/index.js';
export { expectedTranscript, GOLDEN_SCENARIOS, runGoldenScenario } from './golden/index.js';
export type { Transcript, TranscriptEntry } from './golden/transcript.js';
export { kitGroups } from './groups/index.js';
export type {
  CaseContext,
  DriverCapabilities,
  DriverFactory,
  DriverUnderTest,
  FactoryContext,
  KitCase,
  KitGroup,
  KitHooks,
  KitOptions,
  SiblingContext,
} from './kit.js';
export {
  DEFAULT_SCALE_BACKLOG,
  KIT_LIFECYCLE_RETENTION,
  KIT_T0,
  TOPOLOGY_DEEP_ONLY,
  withCapabilities,
} from './kit.js';
export type { Normalized } from './normalize.js';
export type {
  OutboxKitCase,
  OutboxStoreFactory,
  OutboxStoreUnderTest,
} from './outbox/describe-outbox-store.js';
export { describeOutboxStore, outboxStoreCases } from './outbox/describe-outbox-store.js';
export { runCase } from './run-case.js';
export type { KitFailure, KitReport } from './run-kit.js';
export { runKit } from './run-kit.js';
export type { ServerControl } from './server-control.js';
export { inProcessStore } from './server-control.js';
export type { KitShard } from './shard.js';
export { shardCases } from './shard.js';
