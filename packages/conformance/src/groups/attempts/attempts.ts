import type { KitGroup } from '../../kit.js';
import { attemptBoundCases } from './attempts-bounds.js';
import { attemptOutcomeCases } from './attempts-outcomes.js';

/**
 * `attempts`: each job's attempt history (`driver.attempts`). Every change that ends an attempt
 * writes its record in the same change, fenced like the settle itself; the history is bounded
 * (records and error bytes), honours tenancy and goes with the job.
 */
export const attemptsGroup: KitGroup = {
  name: 'attempts',
  cases: [...attemptOutcomeCases, ...attemptBoundCases],
};
