import type { MarkStore } from '../contract/marks.js';
import type { Json } from '../contract/records.js';
import { configInvalid } from '../errors/refusals.js';
import { defineJob } from '../runtime/jobs/define-job.js';
import type { JobContext, JobDefinition, RetryOptions } from '../runtime/jobs/job-types.js';
import { NonRetryableError } from '../runtime/jobs/non-retryable.js';
import { RetryAfterError } from '../runtime/jobs/retry-after.js';
import { webhookDeliverySchema } from './canonical.js';
import { bodyExcerpt, retryAfterMs, verdictOf } from './response.js';
import { signWebhook } from './sign.js';

/** Where deliveries go. `id` names the endpoint for secrets and for disabling it. */
export interface WebhookEndpoint {
  readonly id: string;
  readonly url: string;
}

/** One message: the same `id` on every attempt and every endpoint it goes to. */
export interface WebhookMessage {
  readonly id: string;
  readonly type: string;
  readonly data: Json;
}

/** A delivery job's payload. */
export interface WebhookDelivery {
  readonly endpoint: WebhookEndpoint;
  readonly message: WebhookMessage;
  /** When the message happened (ISO 8601): the body's `timestamp`, the same on every attempt. */
  readonly timestamp: string;
}

/** A delivery job's result: the endpoint's answer. */
export interface WebhookReceipt {
  readonly status: number;
  readonly latencyMs: number;
}

export interface WebhookJobOptions {
  /** The job's name. Default `berth.webhook`. */
  readonly name?: string;
  readonly queue?: string;
  /**
   * Every secret the endpoint accepts now, read at each attempt (so a rotation needs no
   * redeploy): each one signs. Secrets never travel in the job's payload.
   */
  secrets(endpoint: WebhookEndpoint): readonly string[] | Promise<readonly string[]>;
  /** Longest wait for one answer, ms. Default 15 000. */
  readonly timeoutMs?: number;
  /** Default: 8 attempts, 5 s doubling to at most 1 h. */
  readonly retry?: RetryOptions;
  /** A `Retry-After` longer than this is cut to it, ms. Default 3 600 000. */
  readonly maxRetryAfterMs?: number;
  /** How much of each answer's body the attempt's log line keeps. Default 512 bytes. */
  readonly excerptBytes?: number;
  /** Default the global `fetch`. */
  readonly fetch?: typeof fetch;
  /**
   * Turns an endpoint off once no delivery to it succeeded for `afterMs` and another delivery
   * gives up: its later deliveries give up at once (dead, requeueable) until
   * {@link enableWebhookEndpoint}. Kept in the driver's marks, so every worker agrees.
   */
  readonly disable?: { readonly marks: MarkStore; readonly afterMs: number };
}

const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 8,
  backoff: { initialMs: 5_000, factor: 2, maxMs: 3_600_000, jitter: 0.2 },
};

/** The marks an endpoint's state is kept in: its last success, and when it was turned off. */
export const webhookMarks = (endpointId: string) => ({
  ok: `berth.webhook.ok.${endpointId}`,
  disabled: `berth.webhook.disabled.${endpointId}`,
});

/** Turns an endpoint back on: its next deliveries are sent again. */
export async function enableWebhookEndpoint(
  marks: MarkStore,
  endpointId: string,
  now: number = Date.now(),
): Promise<void> {
  const names = webhookMarks(endpointId);
  const disabled = (await marks.get(names.disabled)) ?? 0;
  await marks.advance(names.ok, Math.max(now, disabled + 1));
}

/** Whether an endpoint is turned off (disabled after its last success). */
export async function isWebhookEndpointDisabled(
  marks: MarkStore,
  endpointId: string,
): Promise<boolean> {
  const names = webhookMarks(endpointId);
  const [ok, disabled] = await Promise.all([marks.get(names.ok), marks.get(names.disabled)]);
  return disabled !== undefined && disabled > (ok ?? 0);
}

/**
 * A job that POSTs signed webhooks (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) with the body `{ type, timestamp, data }`. 2xx completes it with the
 * status and latency; 408, 429, 5xx, a timeout or a network error retry (a `Retry-After` names
 * the wait); any other answer gives up at once. Each attempt logs its answer (status, latency,
 * the start of the body) with the job: `berth jobs logs <id>` and the dashboard show them.
 */
export function defineWebhookJob(
  options: WebhookJobOptions,
): JobDefinition<WebhookDelivery, WebhookDelivery, WebhookReceipt> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 3_600_000;
  const excerptBytes = options.excerptBytes ?? 512;
  if (typeof options.secrets !== 'function') {
    throw configInvalid({
      option: 'secrets',
      reason: 'must be a function answering the endpoint’s secrets',
      example: 'defineWebhookJob({ secrets: (endpoint) => secretsOf(endpoint.id) })',
    });
  }
  const send = options.fetch ?? fetch;
  return defineJob<WebhookDelivery, WebhookDelivery, WebhookReceipt>({
    name: options.name ?? 'berth.webhook',
    ...(options.queue === undefined ? {} : { queue: options.queue }),
    schema: webhookDeliverySchema,
    retry: options.retry ?? DEFAULT_RETRY,
    run: async (ctx) => {
      const { endpoint, message, timestamp } = ctx.payload;
      const disable = options.disable;
      if (disable !== undefined && (await isWebhookEndpointDisabled(disable.marks, endpoint.id))) {
        throw new NonRetryableError(`endpoint ${endpoint.id} is disabled: enable it, then requeue`);
      }
      if (!isHttpUrl(endpoint.url)) {
        throw new NonRetryableError(`endpoint ${endpoint.id} url is not an http(s) URL`);
      }
      const body = JSON.stringify({ type: message.type, timestamp, data: message.data });
      const headers = signWebhook({
        id: message.id,
        timestamp: Math.floor(Date.now() / 1_000),
        body,
        secrets: await options.secrets(endpoint),
      });
      const started = Date.now();
      let response: Response;
      try {
        response = await send(endpoint.url, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body,
          redirect: 'manual',
          signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)]),
        });
      } catch (error) {
        // Cancelled, lease lost or draining: the worker's own reason, not the endpoint's fault.
        if (ctx.signal.aborted) throw ctx.signal.reason ?? error;
        const waited = Date.now() - started;
        const why =
          waited >= timeoutMs
            ? `no answer within ${timeoutMs} ms`
            : `no answer: ${describeFailure(error)}`;
        ctx.log.warn(`POST ${endpoint.url}: ${why} (after ${waited} ms)`);
        await disableIfGivingUp(ctx, options, false);
        throw new Error(why, { cause: error });
      }
      const latencyMs = Date.now() - started;
      const excerpt = await bodyExcerpt(response, excerptBytes);
      const line = `POST ${endpoint.url}: ${response.status} in ${latencyMs} ms`;
      const verdict = verdictOf(response.status);
      if (verdict === 'delivered') {
        ctx.log(line, excerpt);
        if (disable !== undefined)
          await disable.marks.advance(webhookMarks(endpoint.id).ok, started);
        return { status: response.status, latencyMs };
      }
      ctx.log.warn(line, excerpt);
      const why = `the endpoint answered ${response.status}${excerpt === '' ? '' : `: ${excerpt}`}`;
      if (verdict === 'give-up') {
        await disableIfGivingUp(ctx, options, true);
        throw new NonRetryableError(why);
      }
      await disableIfGivingUp(ctx, options, false);
      const wait = retryAfterMs(response.headers.get('retry-after'), Date.now());
      if (wait !== undefined) throw new RetryAfterError(why, Math.min(wait, maxRetryAfterMs));
      throw new Error(why);
    },
  });
}

function isHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** What a failed fetch says: the network error's code (ECONNREFUSED), else its message. */
function describeFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * On the attempt that gives the delivery up (`final`: the answer gives up at once; else only the
 * last attempt does), turns the endpoint off when nothing reached it for `disable.afterMs`.
 */
async function disableIfGivingUp(
  ctx: JobContext<WebhookDelivery>,
  options: WebhookJobOptions,
  final: boolean,
): Promise<void> {
  const disable = options.disable;
  if (disable === undefined) return;
  if (!final && ctx.attempt < ctx.job.maxAttempts) return;
  const names = webhookMarks(ctx.payload.endpoint.id);
  const since = (await disable.marks.get(names.ok)) ?? ctx.job.createdAt;
  const at = Date.now();
  if (at - since < disable.afterMs) return;
  await disable.marks.advance(names.disabled, at);
  ctx.log.warn(
    `endpoint ${ctx.payload.endpoint.id} disabled: nothing reached it since ${new Date(since).toISOString()}`,
  );
}
