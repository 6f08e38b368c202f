import { randomUUID } from 'node:crypto';
import type { Driver, EnqueueRequest } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';

/** The one answer an id taken across tenants gets: it names nothing of the holder. */
const TAKEN = { field: 'id', reason: 'is taken' };

/** `tenantId` set, or left out for `undefined`. */
const as = (tenantId: string | undefined): Pick<EnqueueRequest, 'tenantId'> =>
  tenantId === undefined ? {} : { tenantId };

/** Every row, so a case can assert a refusal changed nothing. */
const everything = async (driver: Driver) => (await driver.list({ limit: 500 })).jobs;

/** The holder's tenant and the caller's: another tenant, or a tenant on one side only. */
const PAIRS: readonly [string | undefined, string | undefined, string][] = [
  ['acme', 'globex', 'another tenant'],
  [undefined, 'globex', 'no tenant, when the caller names one'],
  ['acme', undefined, 'a tenant, when the caller names none'],
];

export const tenancyIdCases: readonly KitCase[] = [
  ...PAIRS.map(
    ([holder, caller, what]): KitCase => ({
      title: `enqueue with a caller id held by a row of ${what} answers JOB_INVALID (field id, "the id is taken") revealing nothing of the holder, and changes nothing`,
      run: async ({ driver }) => {
        const id = randomUUID();
        const made = await driver.enqueue({ name: 'kit.job', id, ...as(holder) });
        const before = await everything(driver);
        const error = await expectRefusal(
          driver.enqueue({ name: 'kit.job', id, ...as(caller) }),
          'JOB_INVALID',
        );
        expect(error.meta).toEqual(TAKEN);
        expect(error.detail).toBe('the id is taken');
        const shown = JSON.stringify(error);
        for (const secret of [made.runId, holder ?? 'no-such-tenant', 'ready']) {
          expect(shown).not.toContain(secret);
        }
        const batch = await expectRefusal(
          driver.enqueueMany([{ name: 'kit.other' }, { name: 'kit.job', id, ...as(caller) }]),
          'JOB_INVALID',
        );
        expect(batch.meta).toMatchObject(TAKEN);
        expect(JSON.stringify(batch)).not.toContain(made.runId);
        expect(await everything(driver)).toEqual(before);
      },
    }),
  ),
  {
    title:
      'enqueue with a caller id held by a row of its own tenant answers that job, deduped, in enqueue and enqueueMany',
    run: async ({ driver }) => {
      for (const tenantId of ['acme', undefined]) {
        const id = randomUUID();
        const made = await driver.enqueue({ name: 'kit.job', id, ...as(tenantId) });
        expect(await driver.enqueue({ name: 'kit.job', id, ...as(tenantId) })).toEqual({
          ...made,
          deduped: true,
        });
        expect(await driver.enqueueMany([{ name: 'kit.job', id, ...as(tenantId) }])).toEqual([
          { ...made, deduped: true },
        ]);
      }
    },
  },
  {
    title:
      'a batch naming one new caller id under two tenants answers JOB_INVALID (field id) and lands nothing',
    run: async ({ driver }) => {
      const id = randomUUID();
      const error = await expectRefusal(
        driver.enqueueMany([
          { name: 'kit.job', id, tenantId: 'acme' },
          { name: 'kit.other' },
          { name: 'kit.job', id, tenantId: 'globex' },
        ]),
        'JOB_INVALID',
      );
      expect(error.meta).toMatchObject(TAKEN);
      expect(await everything(driver)).toEqual([]);
      const same = await driver.enqueueMany([
        { name: 'kit.job', id, tenantId: 'acme' },
        { name: 'kit.job', id, tenantId: 'acme' },
      ]);
      expect(same[1]).toEqual({ ...same[0], deduped: true });
    },
  },
];
