import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The instant a version 7 uuid holds, in ms. */
const instantOf = (id: string) => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);

export const enqueueIdCases: readonly KitCase[] = [
  {
    title:
      'the ids, run ids and event ids a driver allocates are version 7 uuids holding the instant of their change: single, in plain and keyed batches, with advanceMark',
    run: async ({ driver, clock, t0 }) => {
      await clock.advance(7_000);
      const single = await driver.enqueue({ name: 'ids' });
      const plain = await driver.enqueueMany([{ name: 'ids' }, { name: 'ids' }]);
      const keyed = await driver.enqueueMany([{ name: 'ids', idempotencyKey: 'k' }]);
      const marked = await driver.enqueue({
        id: randomUUID(),
        name: 'ids',
        advanceMark: { name: 'ids-mark', value: 1 },
      });
      if ('markPassed' in marked) throw new Error('a fresh mark answered markPassed');
      for (const answer of [single, ...plain, ...keyed]) {
        for (const id of [answer.id, answer.runId]) {
          expect(id).toMatch(V7);
          expect(instantOf(id)).toBe(t0 + 7_000);
        }
      }
      expect(marked.runId).toMatch(V7);
      expect(instantOf(marked.runId)).toBe(t0 + 7_000);
      const event = await driver.events.publish('ids', null);
      expect(event.id).toMatch(V7);
      expect(instantOf(event.id)).toBe(event.publishedAt);
    },
  },
];
