import { jobInvalid } from '@berth/core';
import type { JobView } from '../api-types.js';
import { idParam, objectBody, type RequestContext, scope } from '../http/context.js';
import { toJobView } from './views.js';

/** Requeue; with `fromStep`, that step and every later one run again. */
export async function retryJob(context: RequestContext): Promise<{ job: JobView }> {
  const body = await objectBody(context);
  const fromStep = body.fromStep;
  if (fromStep !== undefined && typeof fromStep !== 'string') {
    throw jobInvalid('fromStep', 'must be a step name');
  }
  const job = await context.options.driver.requeue(idParam(context), {
    ...scope(context),
    ...(fromStep === undefined ? {} : { fromStep }),
  });
  return { job: toJobView(job) };
}

export async function cancelJob(context: RequestContext): Promise<{ job: JobView }> {
  await objectBody(context);
  return { job: toJobView(await context.options.driver.cancel(idParam(context), scope(context))) };
}

export async function promoteJob(context: RequestContext): Promise<{ job: JobView }> {
  await objectBody(context);
  return { job: toJobView(await context.options.driver.promote(idParam(context), scope(context))) };
}

/** Deletes the job for good; answers it as it was (a running one is JOB_NOT_DELETABLE). */
export async function deleteJob(context: RequestContext): Promise<{ job: JobView }> {
  await objectBody(context);
  return { job: toJobView(await context.options.driver.delete(idParam(context), scope(context))) };
}
