import { randomUUID } from 'node:crypto';
import type { Driver } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import {
  type CaseContext,
  type DriverUnderTest,
  KIT_LIFECYCLE_RETENTION,
  type KitCase,
  type KitGroup,
} from '../../kit.js';
import { JOB_ERROR, jobIn, mustGet, stepOf } from '../fixtures/index.js';

/**
 * Group `app-transaction` (D8), for drivers that take an app's executor and declare
 * `inAppTransaction`: every refusal made inside an app's open transaction answers its contract
 * code, and the transaction stays usable: a later call in it lands, and the commit keeps it.
 */

type Refusals = (inApp: Driver, outside: Driver) => Promise<void>;

/**
 * A fresh driver from the case's factory; `refusals` runs inside its app transaction, then one
 * more enqueue lands in the same transaction, which commits: the enqueue is then read outside.
 */
async function insideTransaction(context: CaseContext, refusals: Refusals): Promise<void> {
  const made: DriverUnderTest = await context.factory({
    clock: context.clock,
    hooks: {},
    lifecycleRetention: KIT_LIFECYCLE_RETENTION,
  });
  try {
    const run = made.inAppTransaction;
    if (run === undefined) {
      throw new Error(
        'the factory declared the capability inAppTransaction, but its DriverUnderTest has none',
      );
    }
    let after: string | undefined;
    await run(async (inApp) => {
      await refusals(inApp, made.driver);
      after = (await inApp.enqueue({ name: 'kit.after-refusal', queue: 'q-after' })).id;
    });
    if (after === undefined) throw new Error('the transaction callback never ran');
    expect((await mustGet(made.driver, after)).name).toBe('kit.after-refusal');
  } finally {
    await made.dispose();
  }
}

const cases: KitCase[] = [
  {
    title:
      "inside an app transaction, enqueue of a held key answers deduped, onConflict 'error' answers JOB_DUPLICATE, and the transaction commits a later enqueue",
    run: (context) =>
      insideTransaction(context, async (inApp, outside) => {
        const holder = await outside.enqueue({ name: 'kit.job', idempotencyKey: 'k' });
        const again = await inApp.enqueue({ name: 'kit.job', idempotencyKey: 'k' });
        expect(again).toEqual({ ...holder, deduped: true });
        await expectRefusal(
          inApp.enqueue({ name: 'kit.job', idempotencyKey: 'k', onConflict: 'error' }),
          'JOB_DUPLICATE',
        );
      }),
  },
  {
    title:
      "inside an app transaction, enqueueMany dedupes a held key and answers JOB_DUPLICATE for onConflict 'error', landing nothing, and the transaction stays usable",
    run: (context) =>
      insideTransaction(context, async (inApp, outside) => {
        const holder = await outside.enqueue({ name: 'kit.job', idempotencyKey: 'k' });
        const [deduped, fresh] = await inApp.enqueueMany([
          { name: 'kit.job', idempotencyKey: 'k' },
          { name: 'kit.job', queue: 'q-fresh' },
        ]);
        expect(deduped).toEqual({ ...holder, deduped: true });
        expect(fresh?.deduped).toBe(false);
        await expectRefusal(
          inApp.enqueueMany([
            { name: 'kit.job', queue: 'q-none' },
            { name: 'kit.job', idempotencyKey: 'k', onConflict: 'error' },
          ]),
          'JOB_DUPLICATE',
        );
        expect((await inApp.list({ queue: 'q-none' })).jobs).toEqual([]);
      }),
  },
  {
    title:
      'inside an app transaction, requeue answers JOB_NOT_FOUND, JOB_NOT_REQUEUEABLE and JOB_DUPLICATE (a live holder of its key), and the transaction stays usable',
    run: (context) =>
      insideTransaction(context, async (inApp, outside) => {
        const dead = await jobIn(outside, 'dead', { idempotencyKey: 'k' });
        await outside.enqueue({ name: 'kit.job', idempotencyKey: 'k' });
        const live = await jobIn(outside, 'ready');
        await expectRefusal(inApp.requeue(randomUUID()), 'JOB_NOT_FOUND');
        await expectRefusal(inApp.requeue(live.id), 'JOB_NOT_REQUEUEABLE');
        await expectRefusal(inApp.requeue(dead.id), 'JOB_DUPLICATE');
      }),
  },
  {
    title:
      'inside an app transaction, JOB_INVALID, JOB_NOT_CANCELLABLE, JOB_NOT_PROMOTABLE, LEASE_LOST and a stale fence leave the transaction usable',
    run: (context) =>
      insideTransaction(context, async (inApp, outside) => {
        await expectRefusal(inApp.enqueue({ name: '' }), 'JOB_INVALID');
        await expectRefusal(inApp.purge({ states: ['ready'], olderThan: 0 }), 'JOB_INVALID');
        const done = await jobIn(outside, 'completed');
        await expectRefusal(inApp.cancel(done.id), 'JOB_NOT_CANCELLABLE');
        await expectRefusal(inApp.promote(done.id), 'JOB_NOT_PROMOTABLE');
        const fence = done.fence;
        if (fence === undefined) throw new Error('a completed job was claimed on its way');
        expect(await inApp.ack(fence, {})).toBe(false);
        expect(await inApp.nack(fence, { error: JOB_ERROR })).toBe(false);
        await expectRefusal(
          inApp.steps.put(stepOf(done.runId, 'late', context.clock.now()), fence),
          'LEASE_LOST',
        );
      }),
  },
];

export const appTransactionGroup: KitGroup = { name: 'app-transaction', cases };
