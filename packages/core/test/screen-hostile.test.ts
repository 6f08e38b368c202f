import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createClient,
  type Driver,
  defineJob,
  isBerthError,
  MAX_PAYLOAD_DEPTH,
  registeredErrorCodes,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';

const ID = '0b9c3c53-6f3e-4a43-9d5d-3f3f2b6d7e01';

/** The refusal a call answered: its code, meta and whether toJSON() serialises. */
async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (!isBerthError(error)) throw new Error(`raw ${String(error)}`, { cause: error });
    expect(registeredErrorCodes().map((entry) => entry.code)).toContain(error.code);
    expect(() => JSON.stringify(error)).not.toThrow();
    return { code: error.code, meta: error.meta as Record<string, unknown> };
  }
  throw new Error('expected a refusal');
}

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
};

const throwingGetter = () =>
  Object.defineProperty({}, 'boom', {
    enumerable: true,
    get() {
      throw new Error('getter ran');
    },
  });

const throwingProxy = () =>
  new Proxy(
    {},
    {
      get() {
        throw new Error('trap ran');
      },
      ownKeys() {
        throw new Error('trap ran');
      },
      getPrototypeOf() {
        throw new Error('trap ran');
      },
    },
  );

/** `values` with a hole where `at` was. */
const holed = (values: unknown[], at: number): unknown[] => {
  const out = [...values];
  delete out[at];
  return out;
};

const fence = (jobId: unknown) => ({ jobId, workerId: 'w', claim: 1 }) as never;

async function freshDriver(): Promise<Driver> {
  return memoryOnManualClock().driver;
}

describe('client entry points refuse bad arguments with a registered code', () => {
  const job = defineJob({ name: 'hostile.job', run: () => undefined });
  const checked = defineJob({
    name: 'hostile.checked',
    schema: z.object({ a: z.number() }),
    run: () => undefined,
  });

  it.each([
    [
      'enqueue with null options',
      (c: ReturnType<typeof createClient>) => c.enqueue(job, {}, null as never),
      'options',
    ],
    [
      'enqueue of a null job',
      (c: ReturnType<typeof createClient>) => c.enqueue(null as never, {}),
      'job',
    ],
    [
      'enqueue of a job that is not a definition',
      (c: ReturnType<typeof createClient>) => c.enqueue({ name: 'x' } as never, {}),
      'job',
    ],
    [
      'enqueueMany of null',
      (c: ReturnType<typeof createClient>) => c.enqueueMany(null as never),
      'items',
    ],
    [
      'enqueueMany of [null]',
      (c: ReturnType<typeof createClient>) => c.enqueueMany([null] as never),
      'items[0]',
    ],
    [
      'enqueueMany with a hole',
      (c: ReturnType<typeof createClient>) => c.enqueueMany(new Array(2) as never),
      'items',
    ],
    [
      'enqueue with options whose getter throws',
      (c: ReturnType<typeof createClient>) => c.enqueue(job, {}, throwingGetter() as never),
      'options',
    ],
    [
      'enqueue of a Proxy payload',
      (c: ReturnType<typeof createClient>) => c.enqueue(job, throwingProxy() as never),
      'payload',
    ],
    [
      'enqueue of a Proxy payload through a schema',
      (c: ReturnType<typeof createClient>) => c.enqueue(checked, throwingProxy() as never),
      'payload',
    ],
  ])('%s answers JOB_INVALID naming the field', async (_title, call, field) => {
    const driver = await freshDriver();
    const client = createClient({ driver });
    expect(await refusal(call(client))).toMatchObject({ code: 'JOB_INVALID', meta: { field } });
    expect((await driver.list()).jobs).toEqual([]);
  });
});

describe('driver screens answer JOB_INVALID, never DRIVER_UNAVAILABLE', () => {
  const cases: [string, (driver: Driver) => Promise<unknown>, string][] = [
    ['a null-prototype object as an id', (d) => d.get(Object.create(null)), 'id'],
    ['a Proxy as an id', (d) => d.cancel(throwingProxy() as never), 'id'],
    ['a null-prototype fence jobId', (d) => d.ack(fence(Object.create(null))), 'fence.jobId'],
    ['a Proxy fence jobId', (d) => d.extend(fence(throwingProxy()), 1_000), 'fence.jobId'],
    ['a Proxy as the fence', (d) => d.ack(throwingProxy() as never), 'fence'],
    ['ackMany([null])', (d) => d.ackMany([null] as never), 'items[0]'],
    ['nackMany([null])', (d) => d.nackMany([null] as never), 'items[0]'],
    [
      'a throwing getter in a payload',
      (d) => d.enqueue({ name: 'j', payload: throwingGetter() as never }),
      'payload',
    ],
    [
      'a Proxy in a payload',
      (d) => d.enqueue({ name: 'j', payload: { p: throwingProxy() } as never }),
      'payload',
    ],
    ['a Proxy as the request', (d) => d.enqueue(throwingProxy() as never), 'request'],
    [
      'a throwing getter in an event payload',
      (d) => d.events.publish('e', throwingGetter() as never),
      'event payload',
    ],
    [
      'a null-prototype error.message',
      (d) => d.nack(fence(ID), { error: { message: Object.create(null) } }),
      'error.message',
    ],
    [
      'a null-prototype step status',
      (d) =>
        d.steps.put(
          {
            runId: ID,
            name: 's',
            status: Object.create(null),
            attempts: 0,
            startedAt: 0,
            updatedAt: 0,
          } as never,
          fence(ID),
        ),
      'status',
    ],
    [
      'a payload 2,000 deep',
      (d) => d.enqueue({ name: 'j', payload: nested(2_000) as never }),
      'payload',
    ],
    [
      'a payload 100,000 deep',
      (d) => d.enqueue({ name: 'j', payload: nested(100_000) as never }),
      'payload',
    ],
    ['a Proxy list request', (d) => d.list(throwingProxy() as never), 'list request'],
    [
      'a subscribe queue list that is null',
      (d) => d.subscribe?.(null as never, () => {}) ?? Promise.resolve(),
      'queues',
    ],
  ];
  it.each(cases)('%s is JOB_INVALID naming the field', async (_title, call, field) => {
    const driver = await freshDriver();
    expect(await refusal(call(driver))).toMatchObject({ code: 'JOB_INVALID', meta: { field } });
  });

  it(`a payload ${MAX_PAYLOAD_DEPTH} deep is stored; one level deeper is refused saying the bound`, async () => {
    const driver = await freshDriver();
    const { id } = await driver.enqueue({ name: 'j', payload: nested(MAX_PAYLOAD_DEPTH) as never });
    expect((await driver.get(id))?.payload).toEqual(nested(MAX_PAYLOAD_DEPTH));
    const deeper = await refusal(
      driver.enqueue({ name: 'j', payload: nested(MAX_PAYLOAD_DEPTH + 1) as never }),
    );
    expect(deeper.code).toBe('JOB_INVALID');
    expect(String(deeper.meta.reason)).toContain(`${MAX_PAYLOAD_DEPTH}`);
  });
});

describe('holes in arrays are JOB_INVALID everywhere', () => {
  const cases: [string, (driver: Driver) => Promise<unknown>, string, number?][] = [
    [
      'enqueueMany([ , req, req])',
      (d) => d.enqueueMany(holed([0, { name: 'a' }, { name: 'b' }], 0) as never),
      'requests',
    ],
    [
      'claim({ queues: new Array(1) })',
      (d) => d.claim({ queues: new Array(1), workerId: 'w', visibilityTimeoutMs: 1_000 }),
      'queues',
    ],
    [
      'claim with a hole in names',
      (d) =>
        d.claim({
          queues: ['q'],
          names: holed([0, 'a'], 0) as never,
          workerId: 'w',
          visibilityTimeoutMs: 1_000,
        }),
      'names',
    ],
    ['ackMany(new Array(3))', (d) => d.ackMany(new Array(3)), 'items'],
    ['nackMany(new Array(3))', (d) => d.nackMany(new Array(3)), 'items'],
    [
      'purge with a hole in states',
      (d) => d.purge({ states: new Array(1), olderThan: 1 }),
      'states',
    ],
    [
      'purge with a hole in ids',
      (d) => d.purge({ states: ['dead'], olderThan: 1, ids: new Array(1) }),
      'ids',
    ],
    [
      'a hole in a payload array',
      (d) => d.enqueue({ name: 'j', payload: holed([1, 2, 3], 1) as never }),
      'payload',
    ],
  ];
  it.each(cases)('%s is JOB_INVALID and enqueues nothing', async (_title, call, field) => {
    const driver = await freshDriver();
    await driver.enqueue({ name: 'kept', queue: 'q' });
    const before = await driver.list();
    expect(await refusal(call(driver))).toMatchObject({ code: 'JOB_INVALID', meta: { field } });
    expect(await driver.list()).toEqual(before);
  });
});

describe('payload keys and refusal meta', () => {
  it('a payload’s own "__proto__" key is stored and answered faithfully', async () => {
    const driver = await freshDriver();
    const payload = JSON.parse('{"__proto__":{"admin":true},"a":1}');
    const { id } = await driver.enqueue({ name: 'j', payload });
    const stored = (await driver.get(id))?.payload as Record<string, unknown>;
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(Object.hasOwn(stored, '__proto__')).toBe(true);
    expect(JSON.stringify(stored)).toBe('{"__proto__":{"admin":true},"a":1}');
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it.each([
    ['a bigint', 10n, '10n'],
    [
      'a cyclic object',
      (() => {
        const o: Record<string, unknown> = {};
        o.o = o;
        return o;
      })(),
      'an object',
    ],
    ['a getter-bearing object', throwingGetter(), 'an object'],
    ['a null-prototype object', Object.create(null), 'an object'],
  ])(
    'list limit of %s is JOB_PAGE_INVALID with JSON meta describing it',
    async (_t, limit, received) => {
      const driver = await freshDriver();
      const answer = await refusal(driver.list({ limit: limit as never }));
      expect(answer).toEqual({
        code: 'JOB_PAGE_INVALID',
        meta: { reason: 'limit', received, maxPage: 500 },
      });
    },
  );
});
