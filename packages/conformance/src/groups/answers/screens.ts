import { type Driver, MAX_PAYLOAD_DEPTH } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase, KitGroup } from '../../kit.js';
import { type HostileCall, nested, SHAPE_CALLS, VALUE_CALLS } from './screens-calls.js';
import { makeWorld, outcomeOf, snapshot } from './screens-world.js';

/** Tries every call on one stored world: each is refused as listed and changes nothing. */
async function refuseAll(driver: Driver, calls: readonly HostileCall[]): Promise<void> {
  const world = await makeWorld(driver);
  const before = await snapshot(driver, world);
  for (const hostile of calls) {
    const outcome = await outcomeOf(() => hostile.call(driver, world));
    expect(outcome, hostile.what).toMatchObject({
      code: hostile.code,
      ...(hostile.field === undefined ? {} : { meta: { field: hostile.field } }),
    });
    if (hostile.code === 'JOB_PAGE_INVALID') {
      const meta = (outcome as { meta: Record<string, unknown> }).meta;
      expect(typeof meta.received, `${hostile.what}: meta.received`).toBe('string');
    }
  }
  expect(await snapshot(driver, world)).toEqual(before);
}

const cases: readonly KitCase[] = [
  {
    title:
      'arguments that are not objects, arrays with holes, and null-prototype or Proxy ids and fences answer JOB_INVALID naming the field, and change nothing',
    run: ({ driver }) => refuseAll(driver, SHAPE_CALLS),
  },
  {
    title: `throwing getters, Proxies, holes, payloads over MAX_PAYLOAD_DEPTH (${MAX_PAYLOAD_DEPTH}) and null-prototype messages answer JOB_INVALID naming the field; a limit that is no number answers JOB_PAGE_INVALID with JSON meta; nothing changes`,
    run: ({ driver }) => refuseAll(driver, VALUE_CALLS),
  },
  {
    title: `a payload exactly MAX_PAYLOAD_DEPTH (${MAX_PAYLOAD_DEPTH}) deep is stored and read back whole`,
    run: async ({ driver }) => {
      const payload = nested(MAX_PAYLOAD_DEPTH) as never;
      const { id } = await driver.enqueue({ name: 'kit.deep', queue: 'deep', payload });
      expect((await driver.get(id))?.payload).toEqual(payload);
      const [claimed] = await driver.claim({
        queues: ['deep'],
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
      });
      expect(claimed?.payload).toEqual(payload);
    },
  },
  {
    title:
      'a payload’s own "__proto__" key is stored as data and answered faithfully by get, claim, list and events',
    run: async ({ driver }) => {
      const text = '{"__proto__":{"admin":true},"a":[{"__proto__":1}]}';
      const payload = JSON.parse(text);
      const { id } = await driver.enqueue({ name: 'kit.proto', queue: 'proto', payload });
      const stored = (await driver.get(id))?.payload;
      expect(JSON.stringify(stored)).toBe(text);
      expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
      expect(Object.hasOwn(stored as object, '__proto__')).toBe(true);
      expect(JSON.stringify((await driver.list({ queue: 'proto' })).jobs[0]?.payload)).toBe(text);
      const [claimed] = await driver.claim({
        queues: ['proto'],
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
      });
      expect(JSON.stringify(claimed?.payload)).toBe(text);
      const event = await driver.events.publish('kit.proto', payload);
      expect(JSON.stringify(event.payload)).toBe(text);
      const [listed] = await driver.events.list('kit.proto');
      expect(JSON.stringify(listed?.payload)).toBe(text);
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    },
  },
];

export const screensGroup: KitGroup = { name: 'screens', cases };
