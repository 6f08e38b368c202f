import { createServer } from 'node:http';
import { createMemoryDriver } from '@berth/driver-memory';
import { expect, it } from 'vitest';
import {
  createClient,
  createWorker,
  defineWebhookJob,
  deliverWebhook,
  generateWebhookSecret,
  verifyWebhook,
} from '../src/index.js';
import { readmeExampleTypeErrors, runReadmeExample } from './support/readme-example.js';

it('the README webhooks example runs as written: the receiver verifies the delivery and the job completes 204', async () => {
  const { imports, printed } = await runReadmeExample('webhooks-example', {
    createServer,
    createClient,
    createWorker,
    defineWebhookJob,
    deliverWebhook,
    generateWebhookSecret,
    verifyWebhook,
    createMemoryDriver,
    Buffer,
  });
  expect(imports).toBe(4);
  expect(printed).toEqual([
    [{ type: 'invoice.paid', timestamp: '2026-12-05T09:00:00.000Z', data: { invoice: 'in_1' } }],
    [204],
  ]);
});

it('the README webhooks example type-checks as written', () => {
  const errors = readmeExampleTypeErrors('webhooks-example', 'readme-webhooks.snippet.ts');
  expect(errors).toEqual([]);
}, 60_000);
