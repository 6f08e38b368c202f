import type { EnqueueResult } from '../contract/records.js';
import type { Client, EnqueueOptions } from '../runtime/client/client-types.js';
import type { JobDefinition } from '../runtime/jobs/job-types.js';
import type {
  WebhookDelivery,
  WebhookEndpoint,
  WebhookMessage,
  WebhookReceipt,
} from './deliver-job.js';

/**
 * Enqueues one delivery of `message` to `endpoint`: its body's `timestamp` is now (ISO 8601)
 * unless `options.timestamp` says otherwise, and its idempotency key is
 * `webhook:<endpoint id>:<message id>`, so asking again while that delivery is live answers it
 * (`deduped`) instead of sending the message twice.
 */
export function deliverWebhook(
  client: Client,
  job: JobDefinition<WebhookDelivery, WebhookDelivery, WebhookReceipt>,
  endpoint: WebhookEndpoint,
  message: WebhookMessage,
  options: EnqueueOptions & { readonly timestamp?: string } = {},
): Promise<EnqueueResult> {
  const { timestamp, ...enqueueOptions } = options;
  return client.enqueue(
    job,
    { endpoint, message, timestamp: timestamp ?? new Date().toISOString() },
    { idempotencyKey: `webhook:${endpoint.id}:${message.id}`, ...enqueueOptions },
  );
}
