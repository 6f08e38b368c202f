import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, defineJob, isBerthError } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';

const signup = defineJob({
  name: 'signup',
  queue: 'mail',
  schema: z.object({ email: z.email(), plan: z.enum(['free', 'pro']).default('free') }),
  retry: { maxAttempts: 7 },
  concurrency: { limit: 1, key: (payload) => payload.email },
  run: () => undefined,
});

const plain = defineJob({ name: 'plain', run: () => undefined });

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

describe('client.enqueue', () => {
  it("stores the schema's output, the job's queue, attempts and derived concurrency key", async () => {
    const { driver } = memoryOnManualClock();
    const client = createClient({ driver, jobs: [signup, plain] });
    const { id, deduped } = await client.enqueue(signup, { email: 'ada@example.com' });
    expect(deduped).toBe(false);
    expect(await driver.get(id)).toMatchObject({
      name: 'signup',
      queue: 'mail',
      state: 'ready',
      payload: { email: 'ada@example.com', plan: 'free' },
      maxAttempts: 7,
      concurrencyKey: 'ada@example.com',
    });
  });

  it('refuses a payload the schema rejects with JOB_INVALID and the issues in meta', async () => {
    const { driver } = memoryOnManualClock();
    const client = createClient({ driver });
    const error = await refusal(client.enqueue(signup, { email: 'not-an-email', plan: 'free' }));
    expect(isBerthError(error, 'JOB_INVALID')).toBe(true);
    if (!isBerthError(error, 'JOB_INVALID')) return;
    expect(error.meta).toMatchObject({ field: 'payload', job: 'signup' });
    expect(error.meta.issues).toEqual([expect.objectContaining({ path: ['email'] })]);
    expect((await driver.list()).jobs).toEqual([]);
  });

  it('delays by ms on the driver clock, or runs at an instant', async () => {
    const { driver, clock } = memoryOnManualClock();
    const client = createClient({ driver });
    const later = await client.enqueue(plain, null, { delay: 5_000 });
    const at = await client.enqueue(plain, null, { runAt: clock.now() + 9_000 });
    expect(await driver.get(later.id)).toMatchObject({
      state: 'delayed',
      runAt: clock.now() + 5_000,
    });
    expect(await driver.get(at.id)).toMatchObject({ state: 'delayed', runAt: clock.now() + 9_000 });
    const error = await refusal(client.enqueue(plain, null, { delay: 1, runAt: clock.now() }));
    expect(isBerthError(error, 'JOB_INVALID')).toBe(true);
  });

  it('passes priority, tenant, caller id, enqueuedBy and an override of attempts', async () => {
    const { driver } = memoryOnManualClock();
    const client = createClient({ driver });
    const id = crypto.randomUUID();
    await client.enqueue(
      plain,
      { n: 1 },
      {
        id,
        priority: 5,
        tenantId: 'acme',
        enqueuedBy: 'test',
        maxAttempts: 1,
        queue: 'other',
      },
    );
    expect(await driver.get(id)).toMatchObject({
      priority: 5,
      tenantId: 'acme',
      enqueuedBy: 'test',
      maxAttempts: 1,
      queue: 'other',
      payload: { n: 1 },
    });
  });

  it('dedupes on an idempotency key, or refuses with JOB_DUPLICATE when onConflict is error', async () => {
    const { driver } = memoryOnManualClock();
    const client = createClient({ driver });
    const first = await client.enqueue(plain, null, { idempotencyKey: 'k' });
    const again = await client.enqueue(plain, null, { idempotencyKey: 'k' });
    expect(again).toEqual({ ...first, deduped: true });
    const error = await refusal(
      client.enqueue(plain, null, { idempotencyKey: 'k', onConflict: 'error' }),
    );
    expect(isBerthError(error, 'JOB_DUPLICATE')).toBe(true);
  });

  it('refuses a job the client was not created with', async () => {
    const { driver } = memoryOnManualClock();
    const client = createClient({ driver, jobs: [plain] });
    const error = await refusal(client.enqueue(signup, { email: 'ada@example.com' }));
    expect(isBerthError(error, 'CONFIG_INVALID')).toBe(true);
  });
});

describe('client.enqueueMany', () => {
  it('enqueues every item in one call, in order, each checked against its own job', async () => {
    const { driver } = memoryOnManualClock();
    const client = createClient({ driver });
    const results = await client.enqueueMany([
      { job: signup, payload: { email: 'a@example.com', plan: 'pro' } },
      { job: plain, payload: [1, 2], options: { priority: 2 } },
    ]);
    expect(results).toHaveLength(2);
    const [first, second] = results;
    expect(await driver.get(first?.id ?? '')).toMatchObject({ name: 'signup', queue: 'mail' });
    expect(await driver.get(second?.id ?? '')).toMatchObject({ name: 'plain', priority: 2 });
  });

  it('lands nothing when one payload fails its schema', async () => {
    const { driver } = memoryOnManualClock();
    const client = createClient({ driver });
    const error = await refusal(
      client.enqueueMany([
        { job: plain, payload: null },
        { job: signup, payload: { email: 'nope' } },
      ]),
    );
    expect(isBerthError(error, 'JOB_INVALID')).toBe(true);
    expect((await driver.list()).jobs).toEqual([]);
  });
});

describe('client.publish', () => {
  it('stores the event through the driver with its ttl', async () => {
    const { driver, clock } = memoryOnManualClock();
    const client = createClient({ driver });
    const event = await client.publish('invoice.paid', { invoice: 'i-1' }, { ttl: 60_000 });
    expect(event).toMatchObject({
      name: 'invoice.paid',
      payload: { invoice: 'i-1' },
      expiresAt: clock.now() + 60_000,
    });
    expect(await driver.events.list('invoice.paid')).toEqual([event]);
  });
});
