import { type Driver, MAX_PAYLOAD_DEPTH } from '@berth/core';
import type { ScreensWorld } from './screens-world.js';

/** One hostile call and the refusal every driver must give it. */
export interface HostileCall {
  readonly what: string;
  readonly call: (driver: Driver, world: ScreensWorld) => Promise<unknown> | undefined;
  readonly code: 'JOB_INVALID' | 'JOB_PAGE_INVALID';
  /** `meta.field` of a JOB_INVALID. */
  readonly field?: string;
}

/** `values` with a hole where `at` was. */
export const holed = (values: readonly unknown[], at: number): unknown[] => {
  const out = [...values];
  delete out[at];
  return out;
};

/** `depth` arrays nested around 1. */
export const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
};

export const throwingGetter = (): object =>
  Object.defineProperty({}, 'boom', {
    enumerable: true,
    get() {
      throw new Error('a getter ran inside a screen');
    },
  });

const trap = () => {
  throw new Error('a Proxy trap ran inside a screen');
};
export const throwingProxy = (): object =>
  new Proxy({}, { get: trap, ownKeys: trap, getPrototypeOf: trap, has: trap });

const bare = (): object => Object.create(null);
const VT = 60_000;
const never = <T>(value: unknown): T => value as T;

/** Arguments that are not objects, arrays with holes, hostile ids and fences. */
export const SHAPE_CALLS: readonly HostileCall[] = [
  {
    what: 'enqueue(null)',
    call: (d) => d.enqueue(never(null)),
    code: 'JOB_INVALID',
    field: 'request',
  },
  {
    what: 'enqueue(a Proxy)',
    call: (d) => d.enqueue(never(throwingProxy())),
    code: 'JOB_INVALID',
    field: 'request',
  },
  {
    what: 'enqueueMany(null)',
    call: (d) => d.enqueueMany(never(null)),
    code: 'JOB_INVALID',
    field: 'requests',
  },
  {
    what: 'enqueueMany([null])',
    call: (d) => d.enqueueMany(never([null])),
    code: 'JOB_INVALID',
    field: 'request',
  },
  {
    what: 'enqueueMany with a hole before two valid requests',
    call: (d) => d.enqueueMany(never(holed([0, { name: 'a' }, { name: 'b' }], 0))),
    code: 'JOB_INVALID',
    field: 'requests',
  },
  {
    what: 'claim(null)',
    call: (d) => d.claim(never(null)),
    code: 'JOB_INVALID',
    field: 'claim request',
  },
  {
    what: 'claim({ queues: new Array(1) })',
    call: (d) => d.claim({ queues: new Array(1), workerId: 'w', visibilityTimeoutMs: VT }),
    code: 'JOB_INVALID',
    field: 'queues',
  },
  {
    what: 'claim with a hole in names',
    call: (d) =>
      d.claim({
        queues: ['screens-ready'],
        names: never(holed([0, 'kit.screens'], 0)),
        workerId: 'w',
        visibilityTimeoutMs: VT,
      }),
    code: 'JOB_INVALID',
    field: 'names',
  },
  {
    what: 'ackMany(new Array(3))',
    call: (d) => d.ackMany(new Array(3)),
    code: 'JOB_INVALID',
    field: 'items',
  },
  {
    what: 'nackMany(new Array(3))',
    call: (d) => d.nackMany(new Array(3)),
    code: 'JOB_INVALID',
    field: 'items',
  },
  {
    what: 'ackMany([null])',
    call: (d) => d.ackMany(never([null])),
    code: 'JOB_INVALID',
    field: 'items[0]',
  },
  {
    what: 'ackMany with a valid item then a hole',
    call: (d, w) => d.ackMany(never(holed([{ fence: w.fence }, 0], 1))),
    code: 'JOB_INVALID',
    field: 'items',
  },
  { what: 'ack(null fence)', call: (d) => d.ack(never(null)), code: 'JOB_INVALID', field: 'fence' },
  {
    what: 'ack(a Proxy fence)',
    call: (d) => d.ack(never(throwingProxy())),
    code: 'JOB_INVALID',
    field: 'fence',
  },
  {
    what: 'ack with a null-prototype fence jobId',
    call: (d, w) => d.ack({ ...w.fence, jobId: never(bare()) }),
    code: 'JOB_INVALID',
    field: 'fence.jobId',
  },
  {
    what: 'extend with a Proxy fence jobId',
    call: (d, w) => d.extend({ ...w.fence, jobId: never(throwingProxy()) }, VT),
    code: 'JOB_INVALID',
    field: 'fence.jobId',
  },
  {
    what: 'progress with a Proxy fence jobId',
    call: (d, w) => d.progress({ ...w.fence, jobId: never(throwingProxy()) }, 1),
    code: 'JOB_INVALID',
    field: 'fence.jobId',
  },
  {
    what: 'progress with a Proxy value',
    call: (d, w) => d.progress(w.fence, never(throwingProxy())),
    code: 'JOB_INVALID',
    field: 'progress',
  },
  {
    what: 'progress with a getter in its value',
    call: (d, w) =>
      d.progress(
        w.fence,
        never(
          Object.defineProperty({}, 'done', {
            enumerable: true,
            get: () => 1,
          }),
        ),
      ),
    code: 'JOB_INVALID',
    field: 'progress',
  },
  {
    what: 'get(a null-prototype id)',
    call: (d) => d.get(never(bare())),
    code: 'JOB_INVALID',
    field: 'id',
  },
  {
    what: 'attempts.list(a Proxy id)',
    call: (d) => d.attempts.list(never(throwingProxy())),
    code: 'JOB_INVALID',
    field: 'id',
  },
  {
    what: 'cancel(a Proxy id)',
    call: (d) => d.cancel(never(throwingProxy())),
    code: 'JOB_INVALID',
    field: 'id',
  },
  {
    what: 'requeue(id, null)',
    call: (d, w) => d.requeue(w.deadId, never(null)),
    code: 'JOB_INVALID',
    field: 'requeue options',
  },
  {
    what: 'cancel(id, a Proxy)',
    call: (d, w) => d.cancel(w.readyId, never(throwingProxy())),
    code: 'JOB_INVALID',
    field: 'options',
  },
  {
    what: 'purge with a hole in states',
    call: (d) => d.purge({ states: new Array(1), olderThan: Number.MAX_SAFE_INTEGER }),
    code: 'JOB_INVALID',
    field: 'states',
  },
  {
    what: 'purge with a valid id then a hole',
    call: (d, w) =>
      d.purge({
        states: ['dead'],
        olderThan: Number.MAX_SAFE_INTEGER,
        ids: never(holed([w.deadId, 0], 1)),
      }),
    code: 'JOB_INVALID',
    field: 'ids',
  },
  {
    what: 'purge(null)',
    call: (d) => d.purge(never(null)),
    code: 'JOB_INVALID',
    field: 'purge request',
  },
  {
    what: 'list(a Proxy)',
    call: (d) => d.list(never(throwingProxy())),
    code: 'JOB_INVALID',
    field: 'list request',
  },
  {
    what: 'steps.put(null, fence)',
    call: (d, w) => d.steps.put(never(null), w.fence),
    code: 'JOB_INVALID',
    field: 'step',
  },
  {
    what: 'leases.acquire(a Proxy name)',
    call: (d) => d.leases.acquire(never(throwingProxy()), 'h', VT),
    code: 'JOB_INVALID',
    field: 'lease name',
  },
  {
    what: 'events.find(name, null)',
    call: (d) => d.events.find('kit.screens.event', never(null)),
    code: 'JOB_INVALID',
    field: 'find options',
  },
];

/** Values inside payloads, errors and steps that no backend can store faithfully. */
export const VALUE_CALLS: readonly HostileCall[] = [
  {
    what: 'a throwing getter in a payload',
    call: (d) => d.enqueue({ name: 'j', payload: never(throwingGetter()) }),
    code: 'JOB_INVALID',
    field: 'payload',
  },
  {
    what: 'a Proxy in a payload',
    call: (d) => d.enqueue({ name: 'j', payload: never({ inner: throwingProxy() }) }),
    code: 'JOB_INVALID',
    field: 'payload',
  },
  {
    what: 'a hole in a payload array',
    call: (d) => d.enqueue({ name: 'j', payload: never(holed([1, 2, 3], 1)) }),
    code: 'JOB_INVALID',
    field: 'payload',
  },
  {
    what: `a payload ${MAX_PAYLOAD_DEPTH + 1} deep`,
    call: (d) => d.enqueue({ name: 'j', payload: never(nested(MAX_PAYLOAD_DEPTH + 1)) }),
    code: 'JOB_INVALID',
    field: 'payload',
  },
  {
    what: 'a payload 100,000 deep',
    call: (d) => d.enqueue({ name: 'j', payload: never(nested(100_000)) }),
    code: 'JOB_INVALID',
    field: 'payload',
  },
  {
    what: 'an ack result with a throwing getter',
    call: (d, w) => d.ack(w.fence, { result: never(throwingGetter()) }),
    code: 'JOB_INVALID',
    field: 'result',
  },
  {
    what: 'an event payload 100,000 deep',
    call: (d) => d.events.publish('kit.screens.event', never(nested(100_000))),
    code: 'JOB_INVALID',
    field: 'event payload',
  },
  {
    what: 'a null-prototype error.message',
    call: (d, w) => d.nack(w.fence, { error: { message: never(bare()) } }),
    code: 'JOB_INVALID',
    field: 'error.message',
  },
  {
    what: 'a null-prototype step status',
    call: (d, w) => {
      const at = d.clock.now();
      return d.steps.put(
        {
          runId: w.runId,
          name: 'second',
          status: never(bare()),
          attempts: 1,
          startedAt: at,
          updatedAt: at,
        },
        w.fence,
      );
    },
    code: 'JOB_INVALID',
    field: 'status',
  },
  { what: 'list limit 10n', call: (d) => d.list({ limit: never(10n) }), code: 'JOB_PAGE_INVALID' },
  {
    what: 'a cyclic list limit',
    call: (d) => {
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      return d.list({ limit: never(cyclic) });
    },
    code: 'JOB_PAGE_INVALID',
  },
  {
    what: 'a getter-bearing list limit',
    call: (d) => d.list({ limit: never(throwingGetter()) }),
    code: 'JOB_PAGE_INVALID',
  },
];
