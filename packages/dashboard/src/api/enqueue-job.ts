import { type EnqueueRequest, type Json, jobInvalid, parseDuration } from '@berth/core';
import { jobNotFound } from '@berth/core/driver';
import type { EnqueueResponse } from '../enqueue-search-types.js';
import { type RequestContext, scope } from '../http/context.js';
import { toJobView } from './views.js';

/**
 * What `POST /api/jobs` takes: `berth enqueue NAME [JSON]`'s arguments and options, under the
 * contract's names. The payload is a JSON value (`payload`) or JSON text the server parses
 * (`payloadJson`, what the page's form sends), at most one of the two.
 */
export const ENQUEUE_FIELDS = [
  'name',
  'queue',
  'payload',
  'payloadJson',
  'delay',
  'priority',
  'idempotencyKey',
  'maxAttempts',
  'tenantId',
] as const;

const KNOWN = new Set<string>(ENQUEUE_FIELDS);

function payloadOf(body: Record<string, unknown>): Json {
  const { payload, payloadJson } = body;
  if (payload !== undefined && payloadJson !== undefined) {
    throw jobInvalid('payloadJson', 'cannot be given with payload: give one of the two');
  }
  if (payloadJson === undefined) return (payload ?? null) as Json;
  if (typeof payloadJson !== 'string') {
    throw jobInvalid('payloadJson', 'must be the payload as JSON text');
  }
  if (payloadJson.trim() === '') return null;
  try {
    return JSON.parse(payloadJson) as Json;
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'it does not parse';
    throw jobInvalid('payload', `is not JSON: ${reason}`);
  }
}

function delayOf(delay: unknown): number | undefined {
  if (delay === undefined) return undefined;
  const ms = typeof delay === 'string' ? parseDuration(delay) : undefined;
  if (ms === undefined) throw jobInvalid('delay', 'is not a duration, e.g. "10s", "5m", "1h30m"');
  return ms;
}

/** The tenant the job is enqueued for: the dashboard's scope, which a body may only repeat. */
function tenantOf(context: RequestContext, given: unknown): unknown {
  if (context.tenantId === undefined) return given;
  if (given !== undefined && given !== context.tenantId) {
    throw jobInvalid(
      'tenantId',
      `is not this dashboard's tenant: it is scoped to ${context.tenantId} and enqueues only for it`,
    );
  }
  return context.tenantId;
}

/**
 * Enqueues one job through the driver, which screens it exactly as it screens `berth enqueue`
 * (name, queue, payload size, priority, attempts): a refusal answers its code, detail and fix.
 */
export async function enqueueJob(context: RequestContext): Promise<EnqueueResponse> {
  const body = await context.body();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw jobInvalid('body', 'must be a JSON object');
  }
  const fields = body as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!KNOWN.has(key)) {
      throw jobInvalid(key, `is not a field this route takes (${ENQUEUE_FIELDS.join(', ')})`);
    }
  }
  const { driver } = context.options;
  const payload = payloadOf(fields);
  const delay = delayOf(fields.delay);
  const given = {
    name: fields.name,
    payload,
    queue: fields.queue,
    runAt: delay === undefined ? undefined : driver.clock.now() + delay,
    priority: fields.priority,
    idempotencyKey: fields.idempotencyKey,
    maxAttempts: fields.maxAttempts,
    tenantId: tenantOf(context, fields.tenantId),
  };
  // The driver screens every field's type and value; undefined ones are left out, as omitted.
  const request = Object.fromEntries(
    Object.entries(given).filter(([, value]) => value !== undefined),
  ) as unknown as EnqueueRequest;
  const result = await driver.enqueue(request);
  const job = await driver.get(result.id, scope(context));
  if (job === undefined) throw jobNotFound(result.id);
  return { job: toJobView(job), deduped: result.deduped };
}
