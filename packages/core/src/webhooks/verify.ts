import { timingSafeEqual } from 'node:crypto';
import { BerthError } from '../errors/berth-error.js';
import { webhookSignature } from './sign.js';

/** Headers as a receiver has them: a fetch `Headers`, or Node's incoming headers object. */
export type ReceivedHeaders =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookInput {
  /** The endpoint's secret, or every secret it accepts during a rotation. */
  readonly secrets: string | readonly string[];
  readonly headers: ReceivedHeaders;
  /** The raw body as received (before any JSON parsing: a re-serialised body fails). */
  readonly body: string | Uint8Array;
  /** How far the timestamp may be from now, seconds. Default 300. */
  readonly toleranceSec?: number;
  /** Now, epoch ms (tests). Default Date.now(). */
  readonly now?: number;
}

export type WebhookRefusal = 'header' | 'timestamp' | 'signature' | 'body';

const refuse = (reason: WebhookRefusal, detail: string) =>
  new BerthError({
    code: 'WEBHOOK_INVALID',
    detail,
    meta: { reason },
  });

function header(headers: ReceivedHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const value = (headers as Readonly<Record<string, string | readonly string[] | undefined>>)[name];
  return typeof value === 'string' ? value : value?.[0];
}

/**
 * Checks a delivery as a receiver (Standard Webhooks): the timestamp within `toleranceSec` of
 * now, and some `v1` signature made by one of `secrets` over `id.timestamp.body`, compared in
 * constant time. Answers the parsed JSON body; anything else throws WEBHOOK_INVALID whose
 * `meta.reason` says what failed (never which secret or how close a signature came).
 */
export function verifyWebhook(input: VerifyWebhookInput): unknown {
  const id = header(input.headers, 'webhook-id');
  const stamp = header(input.headers, 'webhook-timestamp');
  const signed = header(input.headers, 'webhook-signature');
  if (id === undefined || stamp === undefined || signed === undefined) {
    throw refuse(
      'header',
      'the webhook-id, webhook-timestamp and webhook-signature headers are required',
    );
  }
  const timestamp = /^\d{1,15}$/.test(stamp) ? Number(stamp) : Number.NaN;
  const nowSec = Math.floor((input.now ?? Date.now()) / 1_000);
  const tolerance = input.toleranceSec ?? 300;
  if (!Number.isFinite(timestamp) || Math.abs(nowSec - timestamp) > tolerance) {
    throw refuse('timestamp', `the timestamp is not within ${tolerance} s of now`);
  }
  const body =
    typeof input.body === 'string' ? input.body : Buffer.from(input.body).toString('utf8');
  const given = signed
    .split(' ')
    .filter((part) => part.startsWith('v1,'))
    .map((part) => Buffer.from(part));
  const secrets = typeof input.secrets === 'string' ? [input.secrets] : input.secrets;
  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(webhookSignature(secret, id, timestamp, body));
    for (const candidate of given) {
      // Every pair is compared: the time taken says nothing about which one matched.
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) {
        matched = true;
      }
    }
  }
  if (!matched) throw refuse('signature', 'no signature matches a secret of this endpoint');
  try {
    return JSON.parse(body) as unknown;
  } catch (error) {
    throw new BerthError({
      code: 'WEBHOOK_INVALID',
      detail: 'the signed body is not JSON',
      meta: { reason: 'body' },
      cause: error,
    });
  }
}
