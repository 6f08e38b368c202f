import { type DriverFactory, KIT_LIFECYCLE_RETENTION, KIT_T0 } from '@berth/conformance';
import { createManualClock, type Driver, type EnqueueRequest, isBerthError } from '@berth/core';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { memoryFactory } from './memory-factory.js';
import { closePgFactory, pgFactory } from './pg-factory.js';

afterAll(closePgFactory);

/**
 * enqueueMany applies its items in order in ONE statement (a recursive walk in SQL): batches
 * drawn from tiny pools of names, keys and caller ids, so items chain through each other's ids
 * and keys, must answer exactly as memory's one-by-one reference.
 */
const CALLER_IDS = [
  'ba7c0000-0000-4000-8000-000000000001',
  'ba7c0000-0000-4000-8000-000000000002',
  'ba7c0000-0000-4000-8000-000000000003',
];

const spec = fc.record(
  {
    name: fc.constantFrom('a', 'b'),
    key: fc.constantFrom('k1', 'k2'),
    tenant: fc.constant('t1'),
    caller: fc.integer({ min: 0, max: 2 }),
    onConflict: fc.constantFrom('dedupe' as const, 'error' as const),
  },
  { requiredKeys: ['name'] },
);
type Spec = typeof spec extends fc.Arbitrary<infer T> ? T : never;

const scenario = fc.record({
  before: fc.array(fc.record({ spec, cancel: fc.boolean() }), { maxLength: 3 }),
  batch: fc.array(spec, { minLength: 1, maxLength: 8 }),
});

const toRequest = (item: Spec, n: number): EnqueueRequest => ({
  name: item.name,
  payload: n,
  ...(item.key === undefined ? {} : { idempotencyKey: item.key }),
  ...(item.tenant === undefined ? {} : { tenantId: item.tenant }),
  ...(item.caller === undefined ? {} : { id: CALLER_IDS[item.caller] }),
  ...(item.onConflict === undefined ? {} : { onConflict: item.onConflict }),
});

/** Ids become labels in order of first appearance, so two drivers' answers compare. */
function labeler() {
  const labels = new Map<string, string>();
  return (id: string) => {
    if (CALLER_IDS.includes(id)) return id;
    const known = labels.get(id) ?? `id${labels.size + 1}`;
    labels.set(id, known);
    return known;
  };
}

interface Input {
  readonly before: readonly { readonly spec: Spec; readonly cancel: boolean }[];
  readonly batch: readonly Spec[];
}

/** Plays `input` on a fresh driver: what each call answered, then every row. */
async function play(factory: DriverFactory, input: Input): Promise<unknown[]> {
  const clock = createManualClock(KIT_T0);
  const { driver, dispose } = await factory({
    clock,
    hooks: {},
    lifecycleRetention: KIT_LIFECYCLE_RETENTION,
  });
  try {
    return await record(driver, input);
  } finally {
    await dispose();
  }
}

async function record(driver: Driver, input: Input): Promise<unknown[]> {
  const label = labeler();
  const seen: unknown[] = [];
  let n = 0;
  for (const { spec: item, cancel } of input.before) {
    try {
      const made = await driver.enqueue(toRequest(item, n++));
      seen.push([label(made.id), made.deduped]);
      if (cancel && !made.deduped) await driver.cancel(made.id);
    } catch (error) {
      if (!isBerthError(error)) throw error;
      seen.push(['refused', error.code]);
    }
  }
  try {
    const answers = await driver.enqueueMany(input.batch.map((item) => toRequest(item, n++)));
    seen.push(answers.map((answer) => [label(answer.id), answer.deduped]));
  } catch (error) {
    // An id another tenant holds (JOB_INVALID, field id) refuses the batch too.
    if (isBerthError(error, 'JOB_INVALID')) seen.push(['refused', error.code, error.meta.field]);
    else if (!isBerthError(error, 'JOB_DUPLICATE')) throw error;
    else seen.push(['refused', error.code, label(error.meta.existingId)]);
  }
  const rows = (await driver.list({ limit: 500 })).jobs;
  seen.push(rows.map((job) => [label(job.id), job.name, job.state, job.payload]));
  return seen;
}

it('enqueueMany answers every chain of caller ids and keys exactly as memory does', async () => {
  await fc.assert(
    fc.asyncProperty(scenario, async (value) => {
      const onPg = await play(pgFactory, value);
      const onMemory = await play(memoryFactory, value);
      expect(onPg).toEqual(onMemory);
    }),
    { numRuns: 150 },
  );
}, 120_000);
