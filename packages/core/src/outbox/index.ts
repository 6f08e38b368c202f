export type {
  BatchOutcome,
  DeadOutboxRow,
  OutboxAdmin,
  OutboxBatch,
  OutboxStats,
  OutboxStore,
  StagedEvent,
  StagedJob,
  StagedRow,
} from './outbox-types.js';
export type { OutboxRelay, OutboxRelayOptions } from './relay.js';
export { createOutboxRelay } from './relay.js';
export { stagedJobRequest } from './stage.js';
