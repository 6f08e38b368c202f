import type { JobState } from '@berth/core';
import fc from 'fast-check';

/**
 * The operations a differential sequence is made of. Everything is drawn from small pools so that
 * calls meet each other: the same names, keys and tenants collide, fences go stale, cursors are
 * followed. Instants are offsets from the moment the op runs; jobs and fences are picked by index
 * among those the sequence has seen, so the same op means the same thing on both drivers.
 */

const NAMES = ['a', 'b', 'c'] as const;
const QUEUES = ['default', 'q1'] as const;
const KEYS = ['k1', 'k2'] as const;
const TENANTS = ['t1', 't2'] as const;
const WORKERS = ['w1', 'w2'] as const;
const STEPS = ['s1', 's2', 's3'] as const;
const EVENTS = ['e1', 'e2'] as const;
const LEASES = ['l1', 'l2'] as const;
const HOLDERS = ['h1', 'h2', 'h3'] as const;
const TERMINAL = ['completed', 'failed', 'dead', 'cancelled'] as const;

/** Caller-allocated ids (an outbox publishing a row twice). */
export const CALLER_IDS = [
  'c0ffee00-0000-4000-8000-000000000001',
  'c0ffee00-0000-4000-8000-000000000002',
  'c0ffee00-0000-4000-8000-000000000003',
] as const;

/** An id no sequence enqueues. */
export const UNKNOWN_ID = 'deadbeef-0000-4000-8000-000000000000';

export interface EnqueueSpec {
  readonly name: string;
  readonly n: number;
  readonly queue?: string;
  readonly key?: string;
  readonly tenant?: string;
  readonly priority?: number;
  /** runAt = now + delayMs; absent: no runAt. */
  readonly delayMs?: number;
  /** Index into CALLER_IDS. */
  readonly callerId?: number;
  readonly maxAttempts?: number;
  readonly onConflict?: 'dedupe' | 'error';
}

/** A known job by index (modulo how many the sequence has seen), or an id nobody queued. */
export type Target = number | 'unknown';

interface ById<K extends string> {
  readonly kind: K;
  readonly target: Target;
  readonly tenant?: string;
}

interface LeaseOp<K extends string> {
  readonly kind: K;
  readonly name: string;
  readonly holder: string;
  readonly ttlMs: number;
}

export type Op =
  | { readonly kind: 'enqueue'; readonly request: EnqueueSpec }
  | { readonly kind: 'enqueueMany'; readonly requests: readonly EnqueueSpec[] }
  | {
      readonly kind: 'claim';
      readonly queues: readonly string[];
      readonly limit: number;
      readonly worker: string;
      readonly vtMs: number;
      readonly drop?: readonly string[];
    }
  | { readonly kind: 'ack'; readonly fence: number; readonly result?: number }
  | {
      readonly kind: 'nack';
      readonly fence: number;
      readonly retryInMs?: number;
      readonly final?: boolean;
      readonly deadLetter?: boolean;
    }
  | {
      readonly kind: 'suspend';
      readonly fence: number;
      readonly untilInMs: number;
      readonly waitFor?: string;
    }
  | { readonly kind: 'extend'; readonly fence: number; readonly vtMs: number }
  | { readonly kind: 'ackMany'; readonly fences: readonly number[] }
  | { readonly kind: 'nackMany'; readonly fences: readonly number[] }
  | ById<'get'>
  | ById<'cancel'>
  | ById<'promote'>
  | {
      readonly kind: 'requeue';
      readonly target: Target;
      readonly tenant?: string;
      readonly fromStep?: string;
    }
  | {
      readonly kind: 'list';
      readonly limit: number;
      readonly state?: JobState;
      readonly queue?: string;
      readonly name?: string;
      readonly tenant?: string;
      /** Walk from the previous page's cursor on this side. */
      readonly follow?: 'next' | 'prev';
    }
  | { readonly kind: 'stats' }
  | { readonly kind: 'purge'; readonly states: readonly string[]; readonly olderThanInMs: number }
  | {
      readonly kind: 'stepPut';
      readonly fence: number;
      readonly name: string;
      readonly status: 'completed' | 'failed';
    }
  | { readonly kind: 'stepList'; readonly target: number }
  | { readonly kind: 'publish'; readonly name: string; readonly n: number; readonly ttlMs?: number }
  | {
      readonly kind: 'find';
      readonly name: string;
      readonly afterInMs: number;
      readonly match?: number;
    }
  | { readonly kind: 'eventsList'; readonly name?: string }
  | { readonly kind: 'purgeEvents' }
  | LeaseOp<'acquire'>
  | LeaseOp<'renew'>
  | { readonly kind: 'release'; readonly name: string; readonly holder: string }
  | {
      readonly kind: 'acquireSlot';
      readonly key: string;
      readonly limit: number;
      readonly holder: string;
      readonly ttlMs: number;
    }
  | {
      readonly kind: 'renewSlot';
      readonly key: string;
      readonly holder: string;
      readonly ttlMs: number;
    }
  | { readonly kind: 'releaseSlot'; readonly key: string; readonly holder: string }
  | { readonly kind: 'advance'; readonly ms: number };

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const index = fc.nat({ max: 11 });
const vt = pick([1_000, 1_000, 5_000, 30_000]);

const enqueueSpec: fc.Arbitrary<EnqueueSpec> = fc.record(
  {
    name: pick(NAMES),
    n: fc.nat({ max: 9 }),
    queue: pick(QUEUES),
    key: pick(KEYS),
    tenant: pick(TENANTS),
    priority: pick([-1, 0, 1, 5]),
    delayMs: pick([0, 0, 1_000, 5_000, 60_000]),
    callerId: fc.nat({ max: CALLER_IDS.length - 1 }),
    maxAttempts: pick([1, 1, 2]),
    onConflict: pick(['dedupe', 'error'] as const),
  },
  { requiredKeys: ['name', 'n'] },
);

const target: fc.Arbitrary<Target> = fc.oneof(
  { arbitrary: index, weight: 5 },
  { arbitrary: fc.constant('unknown' as const), weight: 1 },
);

const op = <K extends Op['kind']>(
  kind: K,
  fields: fc.Arbitrary<Omit<Extract<Op, { kind: K }>, 'kind'>>,
) => fields.map((value) => ({ kind, ...value }) as Op);

const none = fc.constant({});

const enqueueOp = op('enqueue', fc.record({ request: enqueueSpec }));

/** One operation, weighted towards what makes state: enqueues, claims, settles, clock moves. */
export const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: enqueueOp },
  {
    weight: 1,
    arbitrary: op(
      'enqueueMany',
      fc.record({ requests: fc.array(enqueueSpec, { minLength: 1, maxLength: 3 }) }),
    ),
  },
  {
    weight: 7,
    arbitrary: op(
      'claim',
      fc.record(
        {
          queues: fc.subarray([...QUEUES], { minLength: 1 }),
          limit: fc.integer({ min: 1, max: 3 }),
          worker: pick(WORKERS),
          vtMs: vt,
          drop: fc.subarray([...NAMES], { minLength: 1 }),
        },
        { requiredKeys: ['queues', 'limit', 'worker', 'vtMs'] },
      ),
    ),
  },
  {
    weight: 3,
    arbitrary: op(
      'ack',
      fc.record({ fence: index, result: fc.nat({ max: 9 }) }, { requiredKeys: ['fence'] }),
    ),
  },
  {
    weight: 3,
    arbitrary: op(
      'nack',
      fc.record(
        {
          fence: index,
          retryInMs: pick([0, 5_000, 30_000]),
          final: fc.boolean(),
          deadLetter: fc.boolean(),
        },
        { requiredKeys: ['fence'] },
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: op(
      'suspend',
      fc.record(
        { fence: index, untilInMs: pick([0, 5_000, 30_000]), waitFor: pick(EVENTS) },
        { requiredKeys: ['fence', 'untilInMs'] },
      ),
    ),
  },
  { weight: 1, arbitrary: op('extend', fc.record({ fence: index, vtMs: vt })) },
  {
    weight: 1,
    arbitrary: op(
      'ackMany',
      fc.record({ fences: fc.array(index, { minLength: 1, maxLength: 3 }) }),
    ),
  },
  {
    weight: 1,
    arbitrary: op(
      'nackMany',
      fc.record({ fences: fc.array(index, { minLength: 1, maxLength: 3 }) }),
    ),
  },
  ...(['get', 'cancel', 'promote'] as const).map((kind) => ({
    weight: 2,
    arbitrary: op(kind, fc.record({ target, tenant: pick(TENANTS) }, { requiredKeys: ['target'] })),
  })),
  {
    weight: 2,
    arbitrary: op(
      'requeue',
      fc.record(
        { target, tenant: pick(TENANTS), fromStep: pick(STEPS) },
        { requiredKeys: ['target'] },
      ),
    ),
  },
  {
    weight: 3,
    arbitrary: op(
      'list',
      fc.record(
        {
          limit: fc.integer({ min: 1, max: 4 }),
          state: pick(['ready', 'delayed', 'running', 'suspended', ...TERMINAL] as const),
          queue: pick(QUEUES),
          name: pick(NAMES),
          tenant: pick(TENANTS),
          follow: pick(['next', 'prev'] as const),
        },
        { requiredKeys: ['limit'] },
      ),
    ),
  },
  { weight: 1, arbitrary: op('stats', none) },
  {
    weight: 1,
    arbitrary: op(
      'purge',
      fc.record({
        states: fc.subarray([...TERMINAL], { minLength: 1 }),
        olderThanInMs: pick([-30_000, 0, 1]),
      }),
    ),
  },
  {
    weight: 2,
    arbitrary: op(
      'stepPut',
      fc.record({
        fence: index,
        name: pick(STEPS),
        status: pick(['completed', 'failed'] as const),
      }),
    ),
  },
  { weight: 1, arbitrary: op('stepList', fc.record({ target: index })) },
  {
    weight: 1,
    arbitrary: op(
      'publish',
      fc.record(
        { name: pick(EVENTS), n: fc.nat({ max: 2 }), ttlMs: pick([1_000, 60_000]) },
        { requiredKeys: ['name', 'n'] },
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: op(
      'find',
      fc.record(
        { name: pick(EVENTS), afterInMs: pick([-60_000, -1_000, 0]), match: fc.nat({ max: 2 }) },
        { requiredKeys: ['name', 'afterInMs'] },
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: op('eventsList', fc.record({ name: pick(EVENTS) }, { requiredKeys: [] })),
  },
  { weight: 1, arbitrary: op('purgeEvents', none) },
  ...(['acquire', 'renew'] as const).map((kind) => ({
    weight: 1,
    arbitrary: op(
      kind,
      fc.record({ name: pick(LEASES), holder: pick(HOLDERS), ttlMs: pick([1_000, 30_000]) }),
    ),
  })),
  {
    weight: 1,
    arbitrary: op('release', fc.record({ name: pick(LEASES), holder: pick(HOLDERS) })),
  },
  {
    weight: 1,
    arbitrary: op(
      'acquireSlot',
      fc.record({
        key: pick(LEASES),
        limit: fc.integer({ min: 1, max: 2 }),
        holder: pick(HOLDERS),
        ttlMs: pick([1_000, 30_000]),
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: op(
      'renewSlot',
      fc.record({ key: pick(LEASES), holder: pick(HOLDERS), ttlMs: pick([1_000, 30_000]) }),
    ),
  },
  {
    weight: 1,
    arbitrary: op('releaseSlot', fc.record({ key: pick(LEASES), holder: pick(HOLDERS) })),
  },
  {
    weight: 5,
    arbitrary: op(
      'advance',
      fc.record({
        ms: fc.oneof(pick([0, 1_000, 5_000, 10_000, 30_000]), fc.integer({ min: 0, max: 60_000 })),
      }),
    ),
  },
);

/**
 * A sequence short enough that 200 of them run in well under a minute on a real database. It
 * opens with a few enqueues so that claims, settles and by-id calls have rows to meet.
 */
export const sequenceArbitrary: fc.Arbitrary<readonly Op[]> = fc
  .tuple(
    fc.array(enqueueOp, { minLength: 1, maxLength: 4 }),
    fc.array(opArbitrary, { minLength: 4, maxLength: 26, size: 'max' }),
  )
  .map(([opening, rest]) => [...opening, ...rest]);
