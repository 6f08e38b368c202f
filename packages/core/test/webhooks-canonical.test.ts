import { createMemoryDriver } from '@berth/driver-memory';
import { describe, expect, it } from 'vitest';
import {
  createClient,
  defineWebhookJob,
  deliverWebhook,
  isBerthError,
  isCanonicalWebhookField,
  WEBHOOK_FIELD_MAX,
} from '../src/index.js';

describe('canonical webhook fields', () => {
  it('a field is a letter, then letters, digits or _, at most WEBHOOK_FIELD_MAX characters, and not constructor or prototype', () => {
    for (const good of [
      'amount',
      'customer_id',
      'invoiceId',
      'a1',
      'x'.repeat(WEBHOOK_FIELD_MAX),
    ]) {
      expect(isCanonicalWebhookField(good), good).toBe(true);
    }
    const bad = [
      '',
      '1a',
      '_private',
      'has space',
      'dash-ed',
      'dot.ted',
      '$ref',
      'é',
      'constructor',
      'prototype',
      'x'.repeat(WEBHOOK_FIELD_MAX + 1),
      7,
      null,
    ];
    for (const name of bad) expect(isCanonicalWebhookField(name), String(name)).toBe(false);
  });

  it('a delivery whose data has a non-canonical key at any depth, or whose type is not dotted fields, is JOB_INVALID with each issue at its path, and nothing is enqueued', async () => {
    const driver = createMemoryDriver();
    const webhooks = defineWebhookJob({
      secrets: () => ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    });
    const client = createClient({ driver, jobs: [webhooks] });
    const endpoint = { id: 'ep_1', url: 'https://example.com/hooks' };
    const refused = await deliverWebhook(client, webhooks, endpoint, {
      id: 'msg_1',
      type: 'invoice paid',
      data: { amount: 3, 'line-items': [{ sku: 'a', 'unit price': 2 }], customer: { $id: 'c' } },
    }).catch((error: unknown) => error);
    expect(isBerthError(refused, 'JOB_INVALID')).toBe(true);
    const issues = (refused as { meta: { issues: { path?: unknown[] }[] } }).meta.issues;
    expect(issues.map((issue) => issue.path)).toEqual([
      ['message', 'type'],
      ['message', 'data', 'line-items'],
      ['message', 'data', 'line-items', 0, 'unit price'],
      ['message', 'data', 'customer', '$id'],
    ]);
    expect((await driver.list({})).jobs).toEqual([]);
    const sent = await deliverWebhook(client, webhooks, endpoint, {
      id: 'msg_2',
      type: 'invoice.paid',
      data: { amount: 3, lineItems: [{ sku: 'a', unit_price: 2 }] },
    });
    expect(sent.deduped).toBe(false);
    await driver.close();
  });
});
