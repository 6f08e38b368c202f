import { isBerthError } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { describe, expect, it } from 'vitest';
import { createPgDriver } from '../src/index.js';

/** What a call answers: the BerthError it was refused with. */
async function refusal(call: () => Promise<unknown>) {
  try {
    await call();
  } catch (error) {
    if (isBerthError(error, 'DRIVER_UNAVAILABLE')) return error;
    throw error;
  }
  throw new Error('expected DRIVER_UNAVAILABLE');
}

/** An executor that answers every statement with a pg error of `code`. */
const refusing = (code: string, message: string) => ({
  query: async () => {
    throw Object.assign(new Error(message), { code, severity: 'FATAL' });
  },
});

describe('a server that refuses the role or the database', () => {
  it('a database that does not exist: the fix names the connection string, not a recovery that will not come', async () => {
    const url = new URL(await serverUrl('pg'));
    url.pathname = '/berth_no_such_database';
    const driver = createPgDriver({ connectionString: url.toString() });
    try {
      const error = await refusal(() => driver.list());
      expect(error.meta).toMatchObject({ driver: 'pg', errorCode: '3D000' });
      expect(error.fix).toContain('database');
      expect(error.fix).toContain('connectionString');
      expect(error.fix).not.toContain('recovers by itself');
      const migrating = await refusal(() => driver.migrate());
      expect(migrating.fix).toBe(error.fix);
      const status = await refusal(() => driver.migrationStatus());
      expect(status.fix).toBe(error.fix);
    } finally {
      await driver.close();
    }
  });

  it('a role the server does not know: the fix names the user of the connection string', async () => {
    const url = new URL(await serverUrl('pg'));
    url.username = 'berth_no_such_role';
    const driver = createPgDriver({ connectionString: url.toString() });
    try {
      const error = await refusal(() => driver.check());
      expect(error.meta).toMatchObject({ errorCode: '28000' });
      expect(error.fix).toMatch(/user and password/);
      expect(error.fix).toContain('connectionString');
      expect(error.fix).not.toContain('recovers by itself');
    } finally {
      await driver.close();
    }
  });

  it('a wrong password and a missing privilege get fixes of their own', async () => {
    const cases = [
      ['28P01', 'password authentication failed for user "app"', /user and password/],
      ['42501', 'permission denied for schema berth', /privilege.*GRANT/],
    ] as const;
    for (const [code, message, fix] of cases) {
      const driver = createPgDriver({ executor: refusing(code, message) });
      const error = await refusal(() => driver.list());
      expect(error.meta, code).toMatchObject({ errorCode: code });
      expect(error.fix, code).toMatch(fix);
      expect(error.fix, code).not.toContain('recovers by itself');
      await driver.close();
    }
  });
});
