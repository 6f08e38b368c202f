import { MAX_PROGRESS_BYTES } from '../contract/limits.js';
import type { Json } from '../contract/records.js';
import { screening, screenJson } from './values.js';

/**
 * A progress value: JSON (no `undefined`, no cycles, at most MAX_PAYLOAD_DEPTH deep), copied,
 * and at most MAX_PROGRESS_BYTES of it or the driver's payload limit when that is lower.
 */
export const screenProgress = screening(
  'progress',
  (value: unknown, maxPayloadBytes: number): Json =>
    screenJson('progress', value, Math.min(maxPayloadBytes, MAX_PROGRESS_BYTES)).value,
);
