import type { KitGroup } from '../../kit.js';
import { lifecycleReadCases } from './lifecycle-reads.js';
import { lifecycleRetentionCases } from './lifecycle-retention.js';
import { lifecycleTransitionCases } from './lifecycle-transitions.js';

/**
 * `lifecycle`: the deployment's lifecycle event stream (`driver.lifecycle`). Each transition
 * writes its event in the same change, only when it lands; one job's events come in order with
 * none missing; reads are filtered, paged, bounded (LIFECYCLE_READ_SCAN) and resumable from any
 * position they answered, on every instance; retention keeps the newest events.
 */
export const lifecycleGroup: KitGroup = {
  name: 'lifecycle',
  cases: [...lifecycleTransitionCases, ...lifecycleReadCases, ...lifecycleRetentionCases],
};
