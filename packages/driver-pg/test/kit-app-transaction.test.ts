import { type DriverFactory, runKit, withCapabilities } from '@berth/conformance';
import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { expect, it } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { openPgDriver } from './pg-factory.js';

/**
 * A pg factory whose in-transaction driver answers a requeue refusal the way a driver without a
 * savepoint does after a unique violation: the refusal's code is right, but the statement that
 * failed has aborted the app's transaction.
 */
const abortingFactory: DriverFactory = withCapabilities(
  async ({ clock, hooks, lifecycleRetention }) => {
    const { driver, schema, dispose } = await openPgDriver({ clock, hooks, lifecycleRetention });
    const url = await serverUrl('pg');
    return {
      driver,
      dispose,
      async inAppTransaction(fn) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        const inApp = createPgDriver({
          executor: client,
          schema,
          clock,
          hooks,
          lifecycleRetention,
        });
        const requeue: typeof inApp.requeue = async (id, options) => {
          try {
            return await inApp.requeue(id, options);
          } catch (error) {
            await client.query('SELECT 1 / 0').catch(() => {});
            throw error;
          }
        };
        try {
          await client.query('BEGIN');
          await fn({ ...inApp, requeue });
          await client.query('COMMIT');
        } finally {
          await client.query('ROLLBACK').catch(() => {});
          await inApp.close();
          await client.end();
        }
      },
    };
  },
  { inAppTransaction: true },
);

it('the app-transaction group catches a driver whose refusal leaves the app transaction aborted', async () => {
  const report = await runKit(abortingFactory, { only: ['app-transaction'] });
  expect(report.ran).toBeGreaterThan(0);
  expect(report.failures.map((failure) => failure.title)).toEqual([
    expect.stringContaining('requeue answers JOB_NOT_FOUND'),
  ]);
});
