import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  type Client,
  createClient,
  defineEvent,
  type EventRecord,
  isBerthError,
  type Json,
  type StepApi,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { type AttemptContext, QUEUE, runAttempt } from './support/step-attempt.js';

const orderPaid = defineEvent({
  name: 'order.paid',
  schema: z.object({ orderId: z.string(), cents: z.number().int().default(0) }),
});
const shipped = defineEvent<{ trackingId: string }>({ name: 'order.shipped' });

// Compiled by `pnpm typecheck`, never run.
async function compileOnly(client: Client, step: StepApi) {
  await client.publish(orderPaid, { orderId: 'o1' });
  // @ts-expect-error orderId must be a string
  await client.publish(orderPaid, { orderId: 1 });
  await client.publish(shipped, { trackingId: 't' });
  // @ts-expect-error the declared payload has no field "tracking"
  await client.publish(shipped, { tracking: 't' });
  await client.publish('free.form', { any: ['json'] });
  // @ts-expect-error a bare name still takes only JSON
  await client.publish('free.form', new Date());
  expectTypeOf(await client.publish(orderPaid, { orderId: 'o1' })).toEqualTypeOf<
    EventRecord<{ orderId: string; cents: number }>
  >();
  const paid = await step.waitForEvent('paid', { event: orderPaid, timeout: 1_000 });
  expectTypeOf(paid).toEqualTypeOf<EventRecord<{ orderId: string; cents: number }> | null>();
  const loose = await step.waitForEvent('loose', { event: 'order.paid', timeout: 1_000 });
  expectTypeOf(loose).toEqualTypeOf<EventRecord<Json> | null>();
  // @ts-expect-error an event's payload must be JSON
  defineEvent<{ at: Date }>({ name: 'dated' });
}

describe('declared events', () => {
  it('publish checks the payload against the schema and stores its output', async () => {
    const { driver } = memoryOnManualClock();
    const client = createClient({ driver });
    const stored = await client.publish(orderPaid, { orderId: 'o1' });
    expect(stored).toMatchObject({ name: 'order.paid', payload: { orderId: 'o1', cents: 0 } });
    const refused = await client
      .publish(orderPaid, { orderId: 7 } as unknown as { orderId: string })
      .catch((error: unknown) => error);
    expect(isBerthError(refused, 'JOB_INVALID')).toBe(true);
    if (isBerthError(refused, 'JOB_INVALID')) {
      expect(refused.meta).toMatchObject({ field: 'payload', event: 'order.paid' });
    }
    expect((await driver.events.list('order.paid')).length).toBe(1);
    expect(compileOnly).toBeTypeOf('function');
  });

  it('step.waitForEvent takes the declaration and answers its typed payload', async () => {
    const { driver } = memoryOnManualClock();
    const client = createClient({ driver });
    await driver.enqueue({ name: 'ship', queue: QUEUE });
    await client.publish(shipped, { trackingId: 'T-1' });
    const outcome = await runAttempt(driver, async ({ step }: AttemptContext) => {
      const event = await step.waitForEvent('shipped', { event: shipped, timeout: 60_000 });
      return event === null ? null : event.payload.trackingId;
    });
    expect(outcome).toMatchObject({ kind: 'completed', result: 'T-1' });
  });
});
