import { randomBytes } from 'node:crypto';
import { configInvalid } from '../errors/refusals.js';

/** The prefix Standard Webhooks gives a secret, before its base64 key. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The key bytes of a Standard Webhooks secret: `whsec_` and the base64 of the key (the prefix may
 * be left off). Anything else is CONFIG_INVALID: a secret that silently meant other bytes would
 * sign what no receiver can verify.
 */
export function webhookSecretKey(secret: string): Buffer {
  const encoded =
    typeof secret === 'string' && secret.startsWith(WEBHOOK_SECRET_PREFIX)
      ? secret.slice(WEBHOOK_SECRET_PREFIX.length)
      : secret;
  const key =
    typeof encoded === 'string' && BASE64.test(encoded) && encoded.length % 4 === 0
      ? Buffer.from(encoded, 'base64')
      : undefined;
  if (key === undefined || key.length < 16) {
    throw configInvalid({
      option: 'secret',
      reason: 'is not a webhook secret (whsec_ and the base64 of at least 16 bytes)',
      example: 'generateWebhookSecret() // whsec_…',
    });
  }
  return key;
}

/** A fresh secret for an endpoint: `whsec_` and 24 random bytes in base64. */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}
