import fc from 'fast-check';
import { backfillOpArbitraries } from './backfills.js';
import { logOpArbitraries } from './logs.js';
import { CALLER_IDS, type EnqueueSpec, type Op, type Target } from './ops.js';
import { scheduleOpArbitraries } from './schedules.js';

/**
 * How differential sequences are drawn. Everything comes from small pools so that calls meet
 * each other: names, keys and tenants collide, leases lapse on final attempts, fences go stale,
 * cursors are followed. The weights and odds were tuned so that 200 sequences reach every answer
 * of every operation (a requeue that lands, a claim that buries, a step list that is not empty).
 */

const NAMES = ['a', 'b', 'c'] as const;
const QUEUES = ['default', 'q1'] as const;
const KEYS = ['k1', 'k2'] as const;
const TENANTS = ['t1', 't2'] as const;
const WORKERS = ['w1', 'w2'] as const;
const STEPS = ['s1', 's2', 's3'] as const;
const EVENTS = ['e1', 'e2'] as const;
const LEASES = ['l1', 'l2'] as const;
const HOLDERS = ['h1', 'h2'] as const;
const TERMINAL = ['completed', 'failed', 'dead', 'cancelled'] as const;
const STATES = ['ready', 'delayed', 'running', 'suspended', ...TERMINAL] as const;

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
/** `arbitrary` in `present` draws out of `present + absent`, else `undefined` (not sent). */
const odds = <T>(present: number, absent: number, arbitrary: fc.Arbitrary<T>) =>
  fc.oneof(
    // First, so that shrinking drops the field.
    { weight: absent, arbitrary: fc.constant(undefined) },
    { weight: present, arbitrary },
  );
const sometimes = <T>(arbitrary: fc.Arbitrary<T>) => odds(1, 1, arbitrary);
const rarely = <T>(arbitrary: fc.Arbitrary<T>) => odds(1, 3, arbitrary);

const index = fc.nat({ max: 11 });
const vt = pick([1_000, 1_000, 1_000, 5_000, 30_000]);
const ttl = pick([1_000, 30_000]);

const enqueueSpec: fc.Arbitrary<EnqueueSpec> = fc
  .record({
    name: pick(NAMES),
    n: fc.nat({ max: 9 }),
    queue: sometimes(pick(QUEUES)),
    key: sometimes(pick(KEYS)),
    tenant: rarely(pick(TENANTS)),
    priority: rarely(pick([-1, 1, 5])),
    delayMs: sometimes(pick([0, 0, 1_000, 5_000, 60_000])),
    callerId: rarely(fc.nat({ max: CALLER_IDS.length - 1 })),
    maxAttempts: odds(2, 1, pick([1, 1, 2])),
    onConflict: rarely(pick(['dedupe', 'error'] as const)),
  })
  .map((spec) =>
    // Derived from the fields drawn, so a fixed seed draws the very sequence it drew before.
    spec.callerId !== undefined && spec.n % 3 === 0
      ? { ...spec, parent: (spec.callerId + 1) % CALLER_IDS.length }
      : spec,
  );

const target: fc.Arbitrary<Target> = fc.oneof(
  { weight: 6, arbitrary: index },
  { weight: 1, arbitrary: fc.constant('unknown' as const) },
);

/** A requeue mostly names a job it may accept: one an answer showed settled. */
const requeueTarget: fc.Arbitrary<Target> = fc.oneof(
  { weight: 3, arbitrary: index },
  { weight: 1, arbitrary: fc.constant('unknown' as const) },
  { weight: 5, arbitrary: fc.record({ settled: index }) },
);

type Fields<K extends Op['kind']> = Omit<Extract<Op, { kind: K }>, 'kind'>;

const op = <K extends Op['kind']>(kind: K, fields: fc.Arbitrary<Fields<K>>): fc.Arbitrary<Op> =>
  fields.map((value) => ({ kind, ...value }) as Op);

const weighted = <K extends Op['kind']>(
  weight: number,
  kind: K,
  fields: fc.Arbitrary<Fields<K>>,
) => ({ weight, arbitrary: op(kind, fields) });

const byId = <K extends 'get' | 'attempts' | 'cancel' | 'promote' | 'delete'>(
  kind: K,
  weight: number,
) =>
  weighted(
    weight,
    kind,
    fc.record({ target, tenant: rarely(pick(TENANTS)) }) as fc.Arbitrary<Fields<K>>,
  );

const enqueueOp = op('enqueue', fc.record({ request: enqueueSpec }));

/** One operation, weighted towards what makes state: enqueues, claims, settles, clock moves. */
export const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: enqueueOp },
  weighted(
    1,
    'enqueueMany',
    fc.record({ requests: fc.array(enqueueSpec, { minLength: 1, maxLength: 3 }) }),
  ),
  weighted(
    7,
    'claim',
    fc.record({
      queues: fc.subarray([...QUEUES], { minLength: 1 }),
      limit: fc.integer({ min: 1, max: 3 }),
      worker: pick(WORKERS),
      vtMs: vt,
      drop: rarely(fc.subarray([...NAMES], { minLength: 1 })),
      names: rarely(fc.subarray([...NAMES], { minLength: 1 })),
    }),
  ),
  weighted(3, 'ack', fc.record({ fence: index, result: sometimes(fc.nat({ max: 9 })) })),
  weighted(
    3,
    'nack',
    fc.record({
      fence: index,
      retryInMs: sometimes(pick([0, 5_000, 30_000])),
      final: sometimes(fc.boolean()),
      deadLetter: rarely(fc.boolean()),
      cancel: rarely(fc.constant(true)),
    }),
  ),
  weighted(
    2,
    'suspend',
    fc.record({
      fence: index,
      untilInMs: pick([0, 5_000, 30_000]),
      waitFor: sometimes(pick(EVENTS)),
    }),
  ),
  weighted(1, 'extend', fc.record({ fence: index, vtMs: vt })),
  weighted(2, 'progress', fc.record({ fence: index, done: fc.nat({ max: 99 }) })),
  weighted(1, 'ackMany', fc.record({ fences: fc.array(index, { minLength: 1, maxLength: 3 }) })),
  weighted(1, 'nackMany', fc.record({ fences: fc.array(index, { minLength: 1, maxLength: 3 }) })),
  weighted(
    1,
    'extendMany',
    fc.record({ fences: fc.array(index, { minLength: 1, maxLength: 3 }), vtMs: vt }),
  ),
  byId('get', 2),
  byId('attempts', 2),
  byId('cancel', 3),
  byId('promote', 2),
  byId('delete', 2),
  weighted(
    4,
    'requeue',
    fc.record({
      target: requeueTarget,
      tenant: rarely(pick(TENANTS)),
      fromStep: rarely(pick(STEPS)),
    }),
  ),
  weighted(
    3,
    'list',
    fc.record({
      limit: fc.integer({ min: 1, max: 4 }),
      state: rarely(pick(STATES)),
      queue: rarely(pick(QUEUES)),
      name: rarely(pick(NAMES)),
      tenant: rarely(pick(TENANTS)),
      follow: sometimes(pick(['next', 'prev'] as const)),
    }),
  ),
  weighted(1, 'stats', fc.constant({})),
  weighted(
    1,
    'purge',
    fc.record({
      states: fc.subarray([...TERMINAL], { minLength: 1 }),
      olderThanInMs: pick([-30_000, 0, 1]),
      targets: sometimes(fc.array(requeueTarget, { minLength: 1, maxLength: 3 })),
    }),
  ),
  weighted(
    3,
    'stepPut',
    fc.record({
      fence: index,
      name: pick(STEPS),
      status: pick(['completed', 'completed', 'failed'] as const),
    }),
  ),
  weighted(1, 'stepList', fc.record({ fence: index })),
  weighted(
    2,
    'publish',
    fc.record({ name: pick(EVENTS), n: fc.nat({ max: 2 }), ttlMs: sometimes(ttl) }),
  ),
  weighted(
    1,
    'find',
    fc.record({
      name: pick(EVENTS),
      afterInMs: pick([-60_000, -60_000, -1_000, 0]),
      match: rarely(fc.nat({ max: 2 })),
    }),
  ),
  weighted(1, 'eventsList', fc.record({ name: sometimes(pick(EVENTS)) })),
  weighted(1, 'purgeEvents', fc.constant({})),
  weighted(1, 'acquire', fc.record({ name: pick(LEASES), holder: pick(HOLDERS), ttlMs: ttl })),
  weighted(1, 'renew', fc.record({ name: pick(LEASES), holder: pick(HOLDERS), ttlMs: ttl })),
  weighted(1, 'release', fc.record({ name: pick(LEASES), holder: pick(HOLDERS) })),
  weighted(1, 'holder', fc.record({ name: pick(LEASES) })),
  weighted(
    1,
    'acquireSlot',
    fc.record({
      key: pick(LEASES),
      limit: fc.integer({ min: 1, max: 2 }),
      holder: pick(HOLDERS),
      ttlMs: ttl,
    }),
  ),
  weighted(1, 'renewSlot', fc.record({ key: pick(LEASES), holder: pick(HOLDERS), ttlMs: ttl })),
  weighted(1, 'releaseSlot', fc.record({ key: pick(LEASES), holder: pick(HOLDERS) })),
  weighted(1, 'pause', fc.record({ queue: pick(QUEUES), tenant: rarely(pick(TENANTS)) })),
  weighted(4, 'resume', fc.record({ queue: pick(QUEUES), tenant: rarely(pick(TENANTS)) })),
  weighted(1, 'pausedList', fc.constant({})),
  ...logOpArbitraries(target, TENANTS),
  ...backfillOpArbitraries(TENANTS),
  weighted(
    5,
    'advance',
    fc.record({
      ms: fc.oneof(pick([0, 1_000, 5_000, 10_000, 30_000]), fc.integer({ min: 0, max: 60_000 })),
    }),
  ),
);

/**
 * 5–30 ops: short enough that 200 sequences run in well under a minute on a real database. It
 * opens with a few enqueues so that claims, settles and by-id calls have rows to meet.
 */
export const sequenceArbitrary: fc.Arbitrary<readonly Op[]> = fc
  .tuple(
    fc.array(enqueueOp, { minLength: 1, maxLength: 4 }),
    fc.array(opArbitrary, { minLength: 4, maxLength: 26, size: 'max' }),
  )
  .map(([opening, rest]) => [...opening, ...rest]);

/**
 * Stored-schedule ops and clock moves only: schedules never meet jobs, so they are drawn apart,
 * where 200 sequences reach every answer of theirs without thinning the job sequences' mix.
 */
export const scheduleSequenceArbitrary: fc.Arbitrary<readonly Op[]> = fc.array(
  fc.oneof(
    ...scheduleOpArbitraries(TENANTS),
    weighted(2, 'advance', fc.record({ ms: pick([0, 1_000, 30_000, 90_000]) })),
  ),
  { minLength: 4, maxLength: 24, size: 'max' },
);
