import { randomUUID } from 'node:crypto';
import { systemClock } from '../clock.js';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../contract/limits.js';
import type { EnqueueRequest } from '../contract/records.js';
import type { EnqueueOptions } from '../runtime/client/client-types.js';
import { screenJobDefinition, toEnqueueRequest } from '../runtime/client/enqueue-request.js';
import type { AnyJobContract, JobContract } from '../runtime/jobs/job-types.js';
import { screenEnqueue } from '../screen/enqueue.js';

/**
 * The enqueue request a staged job becomes, checked now (inside the app's transaction, so bad
 * input fails the caller, not the relay): the payload against the job's schema, then every field
 * as the driver's screen checks it. The id is allocated here unless the caller gave one.
 */
export async function stagedJobRequest<TInput, TPayload, TResult>(
  job: JobContract<TInput, TPayload, TResult>,
  payload: TInput,
  options: EnqueueOptions = {},
): Promise<EnqueueRequest & { readonly id: string }> {
  const definition = screenJobDefinition(job as unknown as AnyJobContract, 'job');
  const id = options.id ?? randomUUID();
  // `delay` counts from staging: the relay may run later.
  const request = await toEnqueueRequest(systemClock, definition, payload, { ...options, id });
  screenEnqueue(request, DEFAULT_MAX_PAYLOAD_BYTES);
  return { ...request, id };
}
