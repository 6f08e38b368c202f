import { jobInvalid, type QueuePause } from '@berth/core';
import { type RequestContext, scope } from '../http/context.js';

/**
 * Pause and resume a queue for every worker. The queue comes in the body (`{ queue }`): a name
 * may hold a slash, which no path segment the dashboard serves can carry. A tenant-scoped
 * dashboard passes its tenant, which the driver refuses (JOB_INVALID, field tenantId): a pause
 * holds every tenant's jobs.
 */
async function queueOf(context: RequestContext): Promise<unknown> {
  const body = await context.body();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw jobInvalid('body', 'must be a JSON object');
  }
  // The driver screens the name itself (JOB_INVALID, field queue), as enqueue's.
  return (body as Record<string, unknown>).queue;
}

export async function pauseQueue(context: RequestContext): Promise<{ pause: QueuePause }> {
  const queue = (await queueOf(context)) as string;
  return { pause: await context.options.driver.pauses.pause(queue, scope(context)) };
}

export async function resumeQueue(context: RequestContext): Promise<{ pause: QueuePause }> {
  const queue = (await queueOf(context)) as string;
  return { pause: await context.options.driver.pauses.resume(queue, scope(context)) };
}

/** The paused queues by name; none for a tenant-scoped dashboard, which cannot read them. */
export async function pausedQueues(context: RequestContext): Promise<Map<string, number>> {
  if (context.tenantId !== undefined) return new Map();
  const paused = await context.options.driver.pauses.list();
  return new Map(paused.map((pause) => [pause.queue, pause.pausedAt ?? 0]));
}
