import type { Driver } from '../../contract/driver.js';
import type { ByIdOptions } from '../../contract/records.js';
import { jobNotFound } from '../../errors/refusals.js';
import type { AnyJobContract } from '../jobs/job-types.js';
import { attemptHistory } from './attempts.js';
import { awaitResult, type WaitOptions } from './await-result.js';
import type { JobHandle, TypedJobRecord } from './client-types.js';
import { screenWaitOptions } from './screen-client.js';

/**
 * Job `id`'s record, if it is a job of `job`'s name. A record of another name answers
 * JOB_NOT_FOUND as a missing one does: the caller asked for a job of this kind, and none is there.
 */
export async function typedRecord(
  driver: Driver,
  job: AnyJobContract,
  id: string,
  options: ByIdOptions = {},
): Promise<TypedJobRecord<unknown, unknown>> {
  const record = await driver.get(id, options);
  if (record === undefined || record.name !== job.name) throw jobNotFound(id);
  return record;
}

/** A handle on job `id` of kind `job`: typed reads, and a wait for its result. */
export function jobHandle(
  driver: Driver,
  job: AnyJobContract,
  id: string,
  options: ByIdOptions = {},
): JobHandle<unknown, unknown> {
  return {
    id,
    get: () => typedRecord(driver, job, id, options),
    attempts: () => attemptHistory(driver, id, options),
    async result(wait?: WaitOptions) {
      const screened = screenWaitOptions(wait);
      await typedRecord(driver, job, id, options);
      return awaitResult(driver, id, { ...screened, ...options });
    },
  };
}
