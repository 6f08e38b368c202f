import fc from 'fast-check';
import type { ScreensWorld } from '../groups/answers/screens-world.js';

/**
 * A hostile argument described as plain data, so one generated sequence can be built afresh on
 * each driver (Proxies, getters and cycles cannot be shared, and world ids differ per driver).
 */
export type ValueSpec =
  | {
      readonly k:
        | 'null'
        | 'undef'
        | 'big'
        | 'bare'
        | 'proxy'
        | 'getter'
        | 'cyclic'
        | 'sym'
        | 'fn'
        | 'proto';
    }
  | { readonly k: 'num'; readonly v: number }
  | { readonly k: 'str'; readonly v: string }
  | { readonly k: 'bool'; readonly v: boolean }
  | { readonly k: 'uuid'; readonly v: string }
  | { readonly k: 'holes'; readonly n: number }
  | { readonly k: 'deep'; readonly n: number }
  | { readonly k: 'world'; readonly which: WorldPart }
  | { readonly k: 'arr'; readonly items: readonly ValueSpec[] }
  | { readonly k: 'obj'; readonly entries: readonly (readonly [string, ValueSpec])[] };

type WorldPart = 'fence' | 'runId' | 'deadId' | 'readyId' | 'workerId' | 'claim';

/** Field names of every public request, so objects are often almost valid. */
export const BREAKABLE_FIELDS = [
  'name',
  'queue',
  'payload',
  'id',
  'queues',
  'names',
  'workerId',
  'visibilityTimeoutMs',
  'limit',
  'jobId',
  'claim',
  'fence',
  'error',
  'message',
  'code',
  'status',
  'states',
  'olderThan',
  'ids',
  'after',
  'before',
  'until',
  'waitFor',
  'tenantId',
  'result',
  'ttl',
  'match',
  'runId',
  'attempts',
  'startedAt',
  'updatedAt',
  'priority',
  'runAt',
  'maxAttempts',
  'idempotencyKey',
  'onConflict',
  'final',
  'retryAt',
  'fromStep',
  'state',
  // The app's calls and builders (the client, defineJob, createWorker, createScheduler, ...).
  'driver',
  'jobs',
  'job',
  'run',
  'schema',
  'retry',
  'backoff',
  'deadLetter',
  'concurrency',
  'rateLimit',
  'key',
  'timeout',
  'onSettled',
  'delay',
  'timeoutMs',
  'signal',
  'schedules',
  'cron',
  'timezone',
  'tickMs',
  'catchUp',
  'keep',
  'intervalMs',
  'batchSize',
  'logger',
  '__proto__',
  'constructor',
] as const;

const KINDS = [
  'null',
  'undef',
  'big',
  'bare',
  'proxy',
  'getter',
  'cyclic',
  'sym',
  'fn',
  'proto',
] as const;

const leaf: fc.Arbitrary<ValueSpec> = fc.oneof(
  fc.constantFrom(...KINDS).map((k): ValueSpec => ({ k })),
  fc
    .oneof(
      fc.integer({ min: -3, max: 1_000 }),
      fc.double(),
      fc.constantFrom(
        Number.NaN,
        Number.POSITIVE_INFINITY,
        -0,
        1.5,
        8.64e15 + 1,
        Number.MAX_SAFE_INTEGER,
      ),
    )
    .map((v): ValueSpec => ({ k: 'num', v })),
  fc
    .oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(
        '',
        'ready',
        'dead',
        'kit.fuzz',
        'default',
        'a\u0000b',
        '\ud800',
        'x'.repeat(201),
      ),
    )
    .map((v): ValueSpec => ({ k: 'str', v })),
  fc.boolean().map((v): ValueSpec => ({ k: 'bool', v })),
  fc.uuid().map((v): ValueSpec => ({ k: 'uuid', v })),
  fc.integer({ min: 1, max: 4 }).map((n): ValueSpec => ({ k: 'holes', n })),
  fc.constantFrom(101, 5_000).map((n): ValueSpec => ({ k: 'deep', n })),
  fc
    .constantFrom<WorldPart>('fence', 'runId', 'deadId', 'readyId', 'workerId', 'claim')
    .map((which): ValueSpec => ({ k: 'world', which })),
);

/** Any hostile value: leaves, and arrays and objects of them a few levels deep. */
export const valueSpec: fc.Arbitrary<ValueSpec> = fc.letrec<{ value: ValueSpec }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 3 }).map((items): ValueSpec => ({ k: 'arr', items })),
    fc
      .array(fc.tuple(fc.constantFrom(...BREAKABLE_FIELDS), tie('value')), { maxLength: 4 })
      .map((entries): ValueSpec => ({ k: 'obj', entries })),
  ),
})).value;

const trap = () => {
  throw new Error('a Proxy trap ran inside a screen');
};

/** Builds the value a spec describes, against this driver's world. */
export function build(spec: ValueSpec, world: ScreensWorld): unknown {
  switch (spec.k) {
    case 'null':
      return null;
    case 'undef':
      return undefined;
    case 'big':
      return 10n;
    case 'bare':
      return Object.create(null);
    case 'proxy':
      return new Proxy({}, { get: trap, ownKeys: trap, getPrototypeOf: trap, has: trap });
    case 'getter':
      return Object.defineProperty({}, 'boom', { enumerable: true, get: trap });
    case 'cyclic': {
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      return cyclic;
    }
    case 'sym':
      return Symbol('fuzz');
    case 'fn':
      return () => 1;
    case 'proto':
      return JSON.parse('{"__proto__":{"polluted":true}}');
    case 'num':
    case 'str':
    case 'bool':
    case 'uuid':
      return spec.v;
    case 'holes':
      return new Array(spec.n);
    case 'deep': {
      let value: unknown = 1;
      for (let level = 0; level < spec.n; level += 1) value = [value];
      return value;
    }
    case 'world':
      if (spec.which === 'workerId') return world.fence.workerId;
      if (spec.which === 'claim') return world.fence.claim;
      return world[spec.which];
    case 'arr':
      return spec.items.map((item) => build(item, world));
    case 'obj': {
      const out: Record<string, unknown> = {};
      for (const [key, value] of spec.entries) {
        Object.defineProperty(out, key, {
          value: build(value, world),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
  }
}
