import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  generateWebhookSecret,
  isBerthError,
  signWebhook,
  verifyWebhook,
  webhookSecretKey,
} from '../src/index.js';

// The Standard Webhooks specification's own example (its libraries test against it).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1_614_265_330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

/** What verifyWebhook threw, or undefined. */
function refusal(input: Parameters<typeof verifyWebhook>[0]): unknown {
  try {
    verifyWebhook(input);
  } catch (error) {
    return error;
  }
  return undefined;
}

const now = () => Math.floor(Date.now() / 1_000);

describe('webhook signatures (Standard Webhooks)', () => {
  it('signs the specification example to its published signature, and verifies it', () => {
    const headers = signWebhook({ ...VECTOR, secrets: [VECTOR.secret] });
    expect(headers).toEqual({
      'webhook-id': VECTOR.id,
      'webhook-timestamp': String(VECTOR.timestamp),
      'webhook-signature': VECTOR.signature,
    });
    expect(
      verifyWebhook({
        secrets: VECTOR.secret,
        headers,
        body: VECTOR.body,
        now: VECTOR.timestamp * 1_000,
      }),
    ).toEqual({ test: 2_432_232_314 });
  });

  it('the standardwebhooks package accepts what signWebhook signs, and verifyWebhook what it signs', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ type: 'invoice.paid', data: { id: 'in_1' } });
    const ours = signWebhook({ id: 'msg_1', timestamp: now(), body, secrets: [secret] });
    expect(new Webhook(secret).verify(body, { ...ours })).toEqual(JSON.parse(body));
    const at = new Date();
    const theirs = {
      'webhook-id': 'msg_2',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1_000)),
      'webhook-signature': new Webhook(secret).sign('msg_2', at, body),
    };
    expect(verifyWebhook({ secrets: secret, headers: theirs, body })).toEqual(JSON.parse(body));
  });

  it('during a rotation every secret signs, and a receiver holding either one accepts', () => {
    const [previous, next] = [generateWebhookSecret(), generateWebhookSecret()];
    const body = '{"n":1}';
    const headers = signWebhook({ id: 'msg_r', timestamp: now(), body, secrets: [next, previous] });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyWebhook({ secrets: previous, headers, body })).toEqual({ n: 1 });
    expect(verifyWebhook({ secrets: next, headers, body })).toEqual({ n: 1 });
    expect(new Webhook(previous).verify(body, { ...headers })).toEqual({ n: 1 });
    // A receiver mid-rotation accepts a sender that signs with the old secret alone.
    const old = signWebhook({ id: 'msg_o', timestamp: now(), body, secrets: [previous] });
    expect(verifyWebhook({ secrets: [next, previous], headers: old, body })).toEqual({ n: 1 });
  });

  it('refuses a changed body, another secret, an old or future timestamp, a missing header and a body that is not JSON, saying which', () => {
    const secret = generateWebhookSecret();
    const body = '{"amount":100}';
    const headers = signWebhook({ id: 'msg_x', timestamp: now(), body, secrets: [secret] });
    const cases: [Parameters<typeof verifyWebhook>[0], string][] = [
      [{ secrets: secret, headers, body: '{"amount":999}' }, 'signature'],
      [{ secrets: generateWebhookSecret(), headers, body }, 'signature'],
      [{ secrets: secret, headers, body, now: Date.now() + 301_000 }, 'timestamp'],
      [{ secrets: secret, headers, body, now: Date.now() - 301_000 }, 'timestamp'],
      [{ secrets: secret, headers: { ...headers, 'webhook-id': undefined }, body }, 'header'],
      [
        { secrets: secret, headers: { ...headers, 'webhook-timestamp': 'soon' }, body },
        'timestamp',
      ],
    ];
    for (const [input, reason] of cases) {
      const error = refusal(input);
      expect(isBerthError(error, 'WEBHOOK_INVALID'), String(error)).toBe(true);
      if (isBerthError(error, 'WEBHOOK_INVALID')) expect(error.meta.reason).toBe(reason);
    }
    const text = 'not json';
    const signed = signWebhook({ id: 'msg_t', timestamp: now(), body: text, secrets: [secret] });
    const error = refusal({ secrets: secret, headers: signed, body: text });
    expect(isBerthError(error, 'WEBHOOK_INVALID') && error.meta.reason).toBe('body');
  });

  it('reads headers from a fetch Headers, a Node headers object (arrays too) and a raw Buffer body', () => {
    const secret = generateWebhookSecret();
    const body = '{"ok":true}';
    const headers = signWebhook({ id: 'msg_h', timestamp: now(), body, secrets: [secret] });
    expect(verifyWebhook({ secrets: secret, headers: new Headers({ ...headers }), body })).toEqual({
      ok: true,
    });
    const node = { ...headers, 'webhook-signature': [headers['webhook-signature']] };
    expect(verifyWebhook({ secrets: secret, headers: node, body: Buffer.from(body) })).toEqual({
      ok: true,
    });
  });

  it('a secret that is not whsec_ base64 of 16 bytes or more is CONFIG_INVALID, not a silent other key', () => {
    for (const secret of ['whsec_***', 'whsec_c2hvcnQ=', '', 'not base64!']) {
      let thrown: unknown;
      try {
        webhookSecretKey(secret);
      } catch (error) {
        thrown = error;
      }
      expect(isBerthError(thrown, 'CONFIG_INVALID'), secret).toBe(true);
    }
    expect(webhookSecretKey(VECTOR.secret)).toHaveLength(24);
    expect(generateWebhookSecret()).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  });
});
