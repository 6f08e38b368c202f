import { randomUUID } from 'node:crypto';
import type { EnqueueResult } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import { listAll, mustGet, settleTo } from '../fixtures/index.js';

/**
 * The enqueue-retry seam: `afterEnqueueConflict` runs between an insert a live key holder
 * refused and the holder lookup. Settling the holder there is the race the retry exists for.
 */
const request = { name: 'sync', queue: 'retry', idempotencyKey: 'k' } as const;

export const enqueueRetryCases: readonly KitCase[] = [
  {
    title:
      'a key conflict calls afterEnqueueConflict once, and a holder still live after it answers deduped',
    run: async ({ driver, hooks }) => {
      const holder = await driver.enqueue(request);
      let calls = 0;
      hooks.afterEnqueueConflict = async () => {
        calls += 1;
      };
      expect(await driver.enqueue(request)).toEqual({ ...holder, deduped: true });
      expect(calls).toBe(1);
      expect(await listAll(driver)).toHaveLength(1);
    },
  },
  {
    title:
      'one miss then landed: a holder that settles between the refused insert and the lookup frees the key, and the retried insert makes a new job',
    run: async ({ driver, hooks, t0 }) => {
      const holder = await driver.enqueue(request);
      let calls = 0;
      hooks.afterEnqueueConflict = async () => {
        calls += 1;
        await settleTo(driver, holder.id, 'completed');
      };
      const landed = await driver.enqueue({ ...request, payload: { v: 2 } });
      expect(calls).toBe(1);
      expect(landed.deduped).toBe(false);
      expect(landed.id).not.toBe(holder.id);
      expect(await mustGet(driver, landed.id)).toMatchObject({
        state: 'ready',
        payload: { v: 2 },
        idempotencyKey: 'k',
        runAt: t0,
      });
      expect((await mustGet(driver, holder.id)).state).toBe('completed');
      expect(await listAll(driver)).toHaveLength(2);
    },
  },
  {
    title: "one miss then landed holds for onConflict 'error' too: no JOB_DUPLICATE, a new job",
    run: async ({ driver, hooks }) => {
      const holder = await driver.enqueue(request);
      let calls = 0;
      hooks.afterEnqueueConflict = async () => {
        calls += 1;
        await settleTo(driver, holder.id, 'cancelled');
      };
      const landed = await driver.enqueue({ ...request, onConflict: 'error' });
      expect(calls).toBe(1);
      expect(landed.deduped).toBe(false);
      expect(landed.id).not.toBe(holder.id);
      expect((await mustGet(driver, landed.id)).state).toBe('ready');
    },
  },
  {
    title:
      'two misses: a conflict whose lookup finds no live holder twice throws DRIVER_UNAVAILABLE whose fix names driver.migrate()',
    run: async ({ driver, hooks }) => {
      const holder = await driver.enqueue(request);
      let second: EnqueueResult | undefined;
      let calls = 0;
      // First call: settle the holder and put a new one in; second call: settle that one.
      hooks.afterEnqueueConflict = async () => {
        calls += 1;
        if (calls === 1) {
          await settleTo(driver, holder.id, 'completed');
          second = await driver.enqueue(request);
          expect(second.deduped).toBe(false);
        } else if (second !== undefined) {
          await settleTo(driver, second.id, 'completed');
        }
      };
      const error = await expectRefusal(
        driver.enqueue({ ...request, payload: 'third' }),
        'DRIVER_UNAVAILABLE',
        { driver: driver.name, operation: 'enqueue' },
      );
      expect(error.fix).toContain('driver.migrate()');
      expect(calls).toBe(2);
      const rows = await listAll(driver);
      expect(rows).toHaveLength(2);
      expect(rows.map((job) => job.state)).toEqual(['completed', 'completed']);
      expect(rows.some((job) => job.payload === 'third')).toBe(false);
    },
  },
  {
    title:
      'a caller-id collision answers the existing job without calling afterEnqueueConflict, even when the request holds a key',
    run: async ({ driver, hooks }) => {
      const id = randomUUID();
      const made = await driver.enqueue({ ...request, id });
      let calls = 0;
      hooks.afterEnqueueConflict = async () => {
        calls += 1;
      };
      expect(await driver.enqueue({ ...request, id })).toEqual({ ...made, deduped: true });
      await settleTo(driver, id, 'dead');
      expect(await driver.enqueue({ ...request, id })).toEqual({ ...made, deduped: true });
      expect(calls).toBe(0);
    },
  },
  {
    title: 'an enqueue that meets no live holder never calls afterEnqueueConflict',
    run: async ({ driver, hooks }) => {
      let calls = 0;
      hooks.afterEnqueueConflict = async () => {
        calls += 1;
      };
      const first = await driver.enqueue(request);
      await driver.enqueue({ name: 'sync' });
      await driver.enqueue({ ...request, idempotencyKey: 'other' });
      await settleTo(driver, first.id, 'completed');
      expect((await driver.enqueue(request)).deduped).toBe(false);
      expect(calls).toBe(0);
    },
  },
];
