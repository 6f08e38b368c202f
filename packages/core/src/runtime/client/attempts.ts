import type { AttemptHistory } from '../../contract/attempts.js';
import type { Driver } from '../../contract/driver.js';
import type { ByIdOptions } from '../../contract/records.js';
import { jobNotFound } from '../../errors/refusals.js';

/**
 * Job `id`'s attempt history (`driver.attempts.list`), oldest first; JOB_NOT_FOUND when the
 * queue holds no such job (for this tenant), as `get` refuses.
 */
export async function attemptHistory(
  driver: Driver,
  id: string,
  options: ByIdOptions = {},
): Promise<AttemptHistory> {
  const history = await driver.attempts.list(id, options);
  if (history === undefined) throw jobNotFound(id);
  return history;
}
