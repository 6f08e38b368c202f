import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryDriver } from '@berth/driver-memory';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createClient,
  type Driver,
  defineWebhookJob,
  deliverWebhook,
  enableWebhookEndpoint,
  generateWebhookSecret,
  isWebhookEndpointDisabled,
  type JobRecord,
  type WebhookDelivery,
} from '../src/index.js';
import { testWorkers } from './support/workers.js';

/** One answer the test server gives: a status, headers, a body; `hang` never answers. */
type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A local endpoint answering `answers` in turn (the last one repeats), keeping every request. */
async function endpoint(answers: Answer[]) {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers[Math.min(received.length, answers.length) - 1] ?? { status: 200 };
      if (answer === 'hang') return;
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body ?? '');
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, received };
}

const workers = testWorkers({ concurrency: 4, visibilityTimeoutMs: 30_000, pollIntervalMs: 20 });

/**
 * Polls the driver (real clock) until `id` reads one of `states`. No deadline of its own (a
 * count of polls was one, which a loaded machine outran): the test's timeout bounds it.
 */
async function settled(driver: Driver, id: string, states: string[]): Promise<JobRecord> {
  for (;;) {
    const record = await driver.get(id);
    if (record !== undefined && states.includes(record.state)) return record;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const secret = generateWebhookSecret();
const message = { id: 'msg_1', type: 'invoice.paid', data: { invoice: 'in_1', amount: 4_200 } };
const delivery = (url: string, id = 'ep_1'): WebhookDelivery => ({
  endpoint: { id, url },
  message,
  timestamp: '2026-12-05T00:00:00.000Z',
});

function setup(options: Partial<Parameters<typeof defineWebhookJob>[0]> = {}) {
  const driver = createMemoryDriver();
  const job = defineWebhookJob({
    secrets: () => [secret],
    retry: { maxAttempts: 3, backoff: { initialMs: 10, jitter: 0 } },
    ...options,
  });
  return { driver, job, client: createClient({ driver, jobs: [job] }) };
}

describe('webhook deliveries', () => {
  it('POSTs {type, timestamp, data} signed so the standardwebhooks verifier accepts it, and completes with the status and latency', async () => {
    const target = await endpoint([{ status: 204 }]);
    const { driver, job, client } = setup();
    await workers.start(driver, [job]);
    const { id } = await client.enqueue(job, delivery(target.url));
    const record = await settled(driver, id, ['completed']);
    expect(record.result).toMatchObject({ status: 204 });
    const [request] = target.received;
    if (request === undefined) throw new Error('nothing arrived');
    expect(request.headers['webhook-id']).toBe('msg_1');
    expect(request.headers['content-type']).toBe('application/json');
    const verified = new Webhook(secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    });
    expect(verified).toEqual({
      type: 'invoice.paid',
      timestamp: '2026-12-05T00:00:00.000Z',
      data: message.data,
    });
    const logs = await driver.logs.list(id);
    expect(logs.lines.map((line) => line.message).join('\n')).toContain(
      `POST ${target.url}: 204 in`,
    );
  });

  it('deliverWebhook enqueues one delivery per message and endpoint: asked again while it is live, it answers that one', async () => {
    const target = await endpoint(['hang']);
    const { driver, job, client } = setup({ timeoutMs: 60_000 });
    const first = await deliverWebhook(client, job, { id: 'ep_1', url: target.url }, message);
    const again = await deliverWebhook(client, job, { id: 'ep_1', url: target.url }, message);
    const other = await deliverWebhook(client, job, { id: 'ep_2', url: target.url }, message);
    expect(again).toMatchObject({ id: first.id, deduped: true });
    expect(other.deduped).toBe(false);
    const record = await driver.get(first.id);
    expect(record?.idempotencyKey).toBe('webhook:ep_1:msg_1');
    const stored = record?.payload as { timestamp?: string } | undefined;
    expect(Date.parse(stored?.timestamp ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });

  it('a 503 then a 200: the delivery retries with the same webhook-id and body, and each answer is logged', async () => {
    const target = await endpoint([{ status: 503, body: 'down for maintenance' }, { status: 200 }]);
    const { driver, job, client } = setup();
    await workers.start(driver, [job]);
    const { id } = await client.enqueue(job, delivery(target.url));
    const record = await settled(driver, id, ['completed']);
    expect(record.attempts).toBe(2);
    const [first, second] = target.received;
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(second?.body).toBe(first?.body);
    const logged = (await driver.logs.list(id)).lines.map((line) => line.message).join('\n');
    expect(logged).toContain('503 in');
    expect(logged).toContain('down for maintenance');
    expect(logged).toContain('200 in');
  });

  it('a 429 with Retry-After waits what the endpoint asked, not the backoff', async () => {
    const target = await endpoint([{ status: 429, headers: { 'retry-after': '7' } }]);
    const { driver, job, client } = setup();
    const worker = await workers.start(driver, [job]);
    const retrying = new Promise<{ retryAt: number; at: number }>((resolve) => {
      worker.on('retrying', ({ retryAt }) => resolve({ retryAt, at: Date.now() }));
    });
    await client.enqueue(job, delivery(target.url));
    const { retryAt, at } = await retrying;
    expect(retryAt - at).toBeGreaterThan(6_000);
    expect(retryAt - at).toBeLessThanOrEqual(7_000);
  });

  it('another 4xx gives up at once: dead after one attempt, the status and the body excerpt in its error', async () => {
    const target = await endpoint([{ status: 410, body: 'x'.repeat(2_000) }]);
    const { driver, job, client } = setup({ excerptBytes: 64 });
    await workers.start(driver, [job]);
    const { id } = await client.enqueue(job, delivery(target.url));
    const record = await settled(driver, id, ['dead']);
    expect(record.attempts).toBe(1);
    expect(target.received).toHaveLength(1);
    expect(record.lastError?.message).toBe(`the endpoint answered 410: ${'x'.repeat(64)}…`);
  });

  it('an endpoint that never answers is given up at timeoutMs and tried again', async () => {
    const target = await endpoint(['hang', { status: 200 }]);
    const { driver, job, client } = setup({ timeoutMs: 200 });
    await workers.start(driver, [job]);
    const { id } = await client.enqueue(job, delivery(target.url));
    const record = await settled(driver, id, ['completed']);
    expect(record.attempts).toBe(2);
    const logged = (await driver.logs.list(id)).lines.map((line) => line.message).join('\n');
    expect(logged).toContain('no answer within 200 ms');
  });

  it('a refused connection retries with the network error named, and a url that is not http(s) gives up at once', async () => {
    const closed = await endpoint([{ status: 200 }]);
    const server = servers.pop();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    const { driver, job, client } = setup({
      retry: { maxAttempts: 2, backoff: { initialMs: 10, jitter: 0 } },
    });
    await workers.start(driver, [job]);
    const refused = await client.enqueue(job, delivery(closed.url));
    const dead = await settled(driver, refused.id, ['dead']);
    expect(dead.attempts).toBe(2);
    expect(dead.lastError?.message).toBe('no answer: ECONNREFUSED');
    const wrong = await client.enqueue(job, delivery('ftp://example.com/hooks', 'ep_ftp'));
    const refusedAtOnce = await settled(driver, wrong.id, ['dead']);
    expect(refusedAtOnce.attempts).toBe(1);
    expect(refusedAtOnce.lastError?.message).toContain('is not an http(s) URL');
  });

  it('an endpoint nothing reached for disable.afterMs is turned off when a delivery gives up; its next delivery is not sent until it is enabled', async () => {
    const target = await endpoint([{ status: 500 }, { status: 500 }, { status: 200 }]);
    const driver = createMemoryDriver();
    const job = defineWebhookJob({
      secrets: () => [secret],
      retry: { maxAttempts: 2, backoff: { initialMs: 10, jitter: 0 } },
      disable: { marks: driver.marks, afterMs: 0 },
    });
    const client = createClient({ driver, jobs: [job] });
    await workers.start(driver, [job]);
    const first = await client.enqueue(job, delivery(target.url));
    await settled(driver, first.id, ['dead']);
    expect(await isWebhookEndpointDisabled(driver.marks, 'ep_1')).toBe(true);
    const second = await client.enqueue(job, {
      ...delivery(target.url),
      message: { ...message, id: 'msg_2' },
    });
    const refused = await settled(driver, second.id, ['dead']);
    expect(refused.lastError?.message).toContain('endpoint ep_1 is disabled');
    expect(target.received).toHaveLength(2);
    // Another endpoint is not affected.
    expect(await isWebhookEndpointDisabled(driver.marks, 'ep_2')).toBe(false);
    await enableWebhookEndpoint(driver.marks, 'ep_1');
    expect(await isWebhookEndpointDisabled(driver.marks, 'ep_1')).toBe(false);
    await driver.requeue(second.id);
    expect((await settled(driver, second.id, ['completed'])).result).toMatchObject({ status: 200 });
    expect(target.received).toHaveLength(3);
  });
});
