export { createRetention } from './create-retention.js';
export type {
  Retention,
  RetentionKeep,
  RetentionOptions,
  RetentionSweep,
} from './retention-types.js';
