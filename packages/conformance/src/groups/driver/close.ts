import type { Driver } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase, KitGroup } from '../../kit.js';

const RUN_ID = '0b6c0d2e-8a47-4a83-9b3c-0f1b2a3c4d5e';
const JOB_ID = '7f0c6b2e-8a47-4a83-9b3c-0f1b2a3c4d5e';

/** Every kind of call a closed driver must refuse, each with its operation name. */
const calls: readonly (readonly [string, (driver: Driver) => Promise<unknown>])[] = [
  ['enqueue', (driver) => driver.enqueue({ name: 'task' })],
  [
    'claim',
    (driver) => driver.claim({ queues: ['default'], workerId: 'w', visibilityTimeoutMs: 1_000 }),
  ],
  ['get a job', (driver) => driver.get(JOB_ID)],
  ['list jobs', (driver) => driver.list()],
  ['read stats', (driver) => driver.stats()],
  ['read a step', (driver) => driver.steps.get(RUN_ID, 'step')],
  ['list attempts', (driver) => driver.attempts.list(JOB_ID)],
  ['publish an event', (driver) => driver.events.publish('evt', { n: 1 })],
  ['acquire a lease', (driver) => driver.leases.acquire('leader', 'a', 1_000)],
  ['acquire a slot', (driver) => driver.leases.acquireSlot('k', 1, 'a', 1_000)],
  ['read a mark', (driver) => driver.marks.get('m')],
  ['advance a mark', (driver) => driver.marks.advance('m', 1)],
  ['check the backend', (driver) => driver.check()],
];

const closeCases: readonly KitCase[] = [
  {
    title:
      'after close, enqueue, claim, get, list, stats, steps, attempts, events, leases, marks and check each answer DRIVER_CLOSED with one text on every driver',
    run: async ({ driver }) => {
      await driver.enqueue({ name: 'before-close' });
      await driver.close();
      for (const [operation, call] of calls) {
        const error = await expectRefusal(call(driver), 'DRIVER_CLOSED', { operation });
        expect(error.message).toBe(
          `DRIVER_CLOSED: the driver was closed, so it cannot ${operation}`,
        );
        expect(error.fix).toContain('driver.close()');
      }
    },
  },
  {
    title: 'after close, subscribe (where the driver has it) answers DRIVER_CLOSED',
    run: async ({ driver }) => {
      await driver.close();
      if (driver.subscribe === undefined) return;
      await expectRefusal(
        driver.subscribe(['default'], () => {}),
        'DRIVER_CLOSED',
        {
          operation: 'subscribe',
        },
      );
    },
  },
  {
    title: 'close is idempotent: a second close, and two racing closes, resolve',
    run: async ({ driver }) => {
      await Promise.all([driver.close(), driver.close()]);
      await expect(driver.close()).resolves.toBeUndefined();
    },
  },
  {
    title: 'calls racing close answer either their result or DRIVER_CLOSED, never a backend error',
    run: async ({ driver }) => {
      const racing = Array.from({ length: 20 }, (_, n) =>
        driver.enqueue({ name: `race-${n}` }).then(
          () => 'landed',
          (error: unknown) => error,
        ),
      );
      await driver.close();
      for (const outcome of await Promise.all(racing)) {
        if (outcome === 'landed') continue;
        expect(outcome).toMatchObject({ code: 'DRIVER_CLOSED' });
      }
    },
  },
];

export const closeGroup: KitGroup = { name: 'close', cases: closeCases };
