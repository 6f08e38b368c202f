export type { BackfillControl, BackfillStartOptions } from './control.js';
export { backfillControl, backfillNotFound } from './control.js';
export { backfillJobName, defineBackfill } from './define-backfill.js';
export type {
  BackfillDefinition,
  BackfillJobPayload,
  BackfillJobResult,
  BackfillOptions,
  BackfillPassContext,
  BackfillPassResult,
  BackfillRateLimit,
  BackfillTransaction,
} from './types.js';
