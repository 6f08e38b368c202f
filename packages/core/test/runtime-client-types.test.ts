import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  type ClaimedJob,
  type Client,
  createClient,
  defineJob,
  type JobInput,
  type JobPayload,
  type Json,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';

const order = defineJob({
  name: 'order',
  schema: z.object({ sku: z.string(), quantity: z.number().int().default(1) }),
  run(ctx) {
    expectTypeOf(ctx.payload).toEqualTypeOf<{ sku: string; quantity: number }>();
    expectTypeOf(ctx.job).toEqualTypeOf<ClaimedJob>();
    expectTypeOf(ctx.attempt).toEqualTypeOf<number>();
    return { sku: ctx.payload.sku };
  },
});

const typed = defineJob<{ to: string }>({
  name: 'typed',
  run: ({ payload }) => {
    expectTypeOf(payload).toEqualTypeOf<{ to: string }>();
  },
});

const untyped = defineJob({
  name: 'untyped',
  run: ({ payload }) => {
    expectTypeOf(payload).toEqualTypeOf<Json>();
  },
});

// These calls are compiled (pnpm typecheck), never run: a wrong payload is a type error.
function compileOnly(client: Client) {
  void client.enqueue(order, { sku: 'a' });
  void client.enqueue(order, { sku: 'a', quantity: 2 });
  // @ts-expect-error sku must be a string
  void client.enqueue(order, { sku: 1 });
  // @ts-expect-error sku is required
  void client.enqueue(order, { quantity: 2 });
  void client.enqueue(typed, { to: 'ada' });
  // @ts-expect-error the explicit payload type has no field "from"
  void client.enqueue(typed, { from: 'ada' });
  void client.enqueue(untyped, { anything: [1, 'json'] });
  // @ts-expect-error a function is not JSON
  void client.enqueue(untyped, () => 1);
  void client.enqueueMany([
    { job: order, payload: { sku: 'b' } },
    { job: typed, payload: { to: 'x' } },
  ]);
  void client.enqueueMany([
    // @ts-expect-error this item's payload belongs to another job
    { job: order, payload: { to: 'x' } },
  ]);
}

describe('client types', () => {
  it("types enqueue's payload as the schema's input and run's as its output", () => {
    expectTypeOf<JobInput<typeof order>>().toEqualTypeOf<{
      sku: string;
      quantity?: number | undefined;
    }>();
    expectTypeOf<JobPayload<typeof order>>().toEqualTypeOf<{ sku: string; quantity: number }>();
    expectTypeOf<JobInput<typeof untyped>>().toEqualTypeOf<Json>();
    const { driver } = memoryOnManualClock();
    expectTypeOf(createClient({ driver })).toEqualTypeOf<Client>();
    expectTypeOf(compileOnly).toBeFunction();
  });
});
