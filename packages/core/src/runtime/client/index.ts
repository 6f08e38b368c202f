export {
  DEFAULT_RESULT_TIMEOUT_MS,
  RESULT_POLL_MAX_MS,
  RESULT_POLL_MIN_MS,
} from './await-result.js';
export type {
  Client,
  ClientLifecycle,
  ClientOptions,
  EnqueueAndWaitOptions,
  EnqueueItem,
  EnqueueOptions,
  JobHandle,
  TypedJobRecord,
  WaitOptions,
} from './client-types.js';
export { createClient } from './create-client.js';
export type { DebounceOptions } from './supersede.js';
export { MAX_DEBOUNCE_MS } from './supersede.js';
export type { ThrottleOptions } from './throttle.js';
export { MAX_THROTTLE_MS } from './throttle.js';
