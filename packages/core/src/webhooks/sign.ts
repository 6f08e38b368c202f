import { createHmac } from 'node:crypto';
import { configInvalid } from '../errors/refusals.js';
import { webhookSecretKey } from './secret.js';

/**
 * The three headers of a signed delivery (Standard Webhooks). A type, not an interface, so it is
 * a headers record a receiver's `verifyWebhook` takes as it is.
 */
export type WebhookHeaders = {
  /** The message's id: the same on every attempt, so a receiver can drop repeats. */
  readonly 'webhook-id': string;
  /** When this attempt was signed, unix seconds. */
  readonly 'webhook-timestamp': string;
  /** `v1,<base64 HMAC-SHA256>` per secret, space-separated: several during a rotation. */
  readonly 'webhook-signature': string;
};

export interface WebhookSigningInput {
  readonly id: string;
  /** Unix seconds. */
  readonly timestamp: number;
  /** The exact body sent: receivers verify these bytes. */
  readonly body: string;
  /** Every secret the endpoint accepts now, each signs (one signature per secret). */
  readonly secrets: readonly string[];
}

/** The signature of one secret over `id.timestamp.body`, as `v1,<base64>`. */
export function webhookSignature(secret: string, id: string, timestamp: number, body: string) {
  const mac = createHmac('sha256', webhookSecretKey(secret));
  mac.update(`${id}.${timestamp}.${body}`);
  return `v1,${mac.digest('base64')}`;
}

/** Signs a delivery: the headers to send with `body`. */
export function signWebhook(input: WebhookSigningInput): WebhookHeaders {
  if (typeof input.id !== 'string' || input.id === '' || /[\s.]/.test(input.id)) {
    throw configInvalid({
      option: 'id',
      reason: 'must be a non-empty message id without spaces or dots',
      example: "signWebhook({ id: 'msg_2b9…', timestamp, body, secrets })",
    });
  }
  if (!Number.isSafeInteger(input.timestamp) || input.timestamp < 0) {
    throw configInvalid({
      option: 'timestamp',
      reason: 'must be whole unix seconds',
      example: 'signWebhook({ id, timestamp: Math.floor(Date.now() / 1000), body, secrets })',
    });
  }
  if (!Array.isArray(input.secrets) || input.secrets.length === 0) {
    throw configInvalid({
      option: 'secrets',
      reason: 'must name at least one secret',
      example: 'signWebhook({ id, timestamp, body, secrets: [generateWebhookSecret()] })',
    });
  }
  const signatures = input.secrets.map((secret) =>
    webhookSignature(secret, input.id, input.timestamp, input.body),
  );
  return {
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': signatures.join(' '),
  };
}
