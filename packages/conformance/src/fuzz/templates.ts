import { types } from 'node:util';
import type { ScreensWorld } from '../groups/answers/screens-world.js';
import { appTemplateOf } from './app-entries.js';

/**
 * A valid call of each entry point over the world, so the fuzz can break one field at a time
 * and reach the screens behind the first one. `now` is the driver's clock.
 */
export function templateOf(entry: string, world: ScreensWorld, now: number): unknown[] {
  const { fence } = world;
  const step = { runId: world.runId, name: 'fuzz', status: 'completed', output: 1, attempts: 1 };
  switch (entry) {
    case 'enqueue':
      return [{ name: 'kit.fuzz', queue: 'fuzz', payload: { a: [1, 'b'] } }];
    case 'enqueueMany':
      return [
        [
          { name: 'kit.fuzz', queue: 'fuzz' },
          { name: 'kit.fuzz', idempotencyKey: 'k' },
        ],
      ];
    case 'claim':
      return [{ queues: ['fuzz', 'screens-ready'], workerId: 'fuzz', visibilityTimeoutMs: 60_000 }];
    case 'ack':
      return [fence, { result: { ok: true } }];
    case 'nack':
      return [fence, { error: { message: 'fuzz' }, retryAt: now + 1_000 }];
    case 'suspend':
      return [fence, { until: now + 1_000, waitFor: 'kit.fuzz' }];
    case 'extend':
      return [fence, 60_000];
    case 'progress':
      return [fence, { done: 1, of: 2, stage: 'fuzz' }];
    case 'ackMany':
      return [[{ fence }]];
    case 'nackMany':
      return [[{ fence, error: { message: 'fuzz' } }]];
    case 'extendMany':
      return [[fence], 60_000];
    case 'get':
    case 'cancel':
    case 'promote':
      return [world.readyId, {}];
    case 'requeue':
    case 'delete':
    case 'attempts.list':
      return [world.deadId, {}];
    case 'list':
      return [{ limit: 2, queue: 'fuzz' }];
    case 'purge':
      return [{ states: ['dead'], olderThan: now + 1, ids: [world.deadId] }];
    case 'steps.get':
      return [world.runId, 'first'];
    case 'steps.put':
      return [{ ...step, startedAt: now, updatedAt: now }, fence];
    case 'steps.list':
      return [world.runId];
    case 'events.publish':
      return ['kit.fuzz', { a: 1 }, { ttl: 60_000 }];
    case 'events.find':
      return ['kit.fuzz', { after: 0, match: { a: 1 } }];
    case 'events.list':
      return ['kit.fuzz'];
    case 'leases.acquire':
    case 'leases.renew':
      return ['fuzz.lease', 'fuzz', 60_000];
    case 'leases.release':
      return ['fuzz.lease', 'fuzz'];
    case 'leases.holder':
      return ['fuzz.lease'];
    case 'leases.acquireSlot':
      return ['fuzz.slot', 2, 'fuzz'];
    case 'leases.releaseSlot':
      return ['fuzz.slot', 'fuzz'];
    case 'marks.get':
      return ['fuzz.mark'];
    case 'marks.advance':
      return ['fuzz.mark', now];
    case 'pauses.pause':
    case 'pauses.resume':
      return ['fuzz', {}];
    case 'pauses.list':
      return [{}];
    case 'schedules.put':
      return [
        {
          name: 'fuzz',
          cron: '0 3 * * *',
          job: 'fuzz',
          payload: { a: 1 },
          paused: false,
          nextAt: now,
        },
        0,
      ];
    case 'schedules.get':
      return ['fuzz', { tenantId: 'fuzz' }];
    case 'schedules.remove':
      return ['fuzz', 1, {}];
    case 'schedules.list':
      return [{ limit: 2 }];
    case 'schedules.due':
      return [now, 10];
    default:
      return appTemplateOf(entry, world, now) ?? [];
  }
}

/**
 * A copy of `base` made from its own property descriptors, so no getter or trap of it runs;
 * every property of the copy can be redefined (a frozen job definition's too).
 */
function copyOf(base: unknown): object {
  if (base === null || typeof base !== 'object' || types.isProxy(base)) return {};
  const descriptors = Object.getOwnPropertyDescriptors(base);
  for (const descriptor of Object.values(descriptors)) {
    descriptor.configurable = true;
    if ('value' in descriptor) descriptor.writable = true;
  }
  if (!Array.isArray(base)) return Object.defineProperties({}, descriptors);
  const { length: _length, ...entries } = descriptors;
  return Object.defineProperties(new Array(base.length), entries);
}

/**
 * `base` with `field` set to `value` (defined, so "__proto__" is a key like any other). A base
 * that is no plain object or array (an earlier break made it a Proxy, a number) becomes `{}`.
 */
export function withField(base: unknown, field: string, value: unknown): unknown {
  const copy = copyOf(base);
  Object.defineProperty(copy, field, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}
