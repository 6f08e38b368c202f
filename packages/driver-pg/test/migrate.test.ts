import { isBerthError } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver, LATEST_VERSION, migrate } from '../src/index.js';
import { adminPool, dropSchema, freshSchema } from './pg-factory.js';

describe('pg migrations and connections', () => {
  let url: string;
  const schemas: string[] = [];
  const schema = () => {
    const made = freshSchema();
    schemas.push(made);
    return made;
  };

  beforeAll(async () => {
    url = await serverUrl('pg');
  });

  afterAll(async () => {
    for (const made of schemas) await dropSchema(made);
  });

  it('migrate applies every version once and says which; a second run applies none', async () => {
    const driver = createPgDriver({ connectionString: url, schema: schema() });
    try {
      expect(await driver.migrate()).toEqual({
        version: LATEST_VERSION,
        applied: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17],
      });
      expect(await driver.migrate()).toEqual({ version: LATEST_VERSION, applied: [] });
    } finally {
      await driver.close();
    }
  });

  it('the standalone migrate works on a pool or on one client, and records the version', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const onPool = schema();
      const onClient = schema();
      expect(await migrate({ executor: pool, schema: onPool })).toEqual({
        version: 17,
        applied: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17],
      });
      expect(await migrate({ executor: client, schema: onClient })).toEqual({
        version: 17,
        applied: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17],
      });
      const { rows } = await client.query(
        `SELECT version FROM "${onClient}".migrations ORDER BY version`,
      );
      expect(rows).toEqual([
        { version: 1 },
        { version: 2 },
        { version: 3 },
        { version: 4 },
        { version: 5 },
        { version: 6 },
        { version: 7 },
        { version: 8 },
        { version: 9 },
        { version: 10 },
        { version: 11 },
        { version: 12 },
        { version: 13 },
        { version: 14 },
        { version: 15 },
        { version: 16 },
        { version: 17 },
      ]);
    } finally {
      await client.end();
      await pool.end();
    }
  });

  it('a schema name that is not a plain identifier is refused with CONFIG_INVALID before any SQL', async () => {
    for (const bad of ['', 'has space', 'x"; DROP TABLE y; --', '1starts', 'a'.repeat(49)]) {
      let error: unknown;
      try {
        createPgDriver({ connectionString: url, schema: bad });
      } catch (thrown) {
        error = thrown;
      }
      expect(isBerthError(error, 'CONFIG_INVALID'), bad).toBe(true);
    }
    await expect(migrate({ executor: await adminPool(), schema: 'no-dash' })).rejects.toMatchObject(
      {
        code: 'CONFIG_INVALID',
      },
    );
  });

  it('more than one connection source is refused with CONFIG_INVALID', () => {
    const pool = new pg.Pool({ connectionString: url });
    try {
      expect(() => createPgDriver({ pool, connectionString: url })).toThrow(
        expect.objectContaining({ code: 'CONFIG_INVALID' }),
      );
    } finally {
      void pool.end();
    }
  });

  it("an executor is the app's open transaction: the enqueue lands or vanishes with it, and close leaves the client open", async () => {
    const name = schema();
    const setup = createPgDriver({ connectionString: url, schema: name });
    await setup.migrate();
    await setup.close();

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const driver = createPgDriver({ executor: client, schema: name });
      expect(driver.subscribe).toBeUndefined();
      await client.query('BEGIN');
      const rolledBack = await driver.enqueue({ name: 'order.placed', payload: { n: 1 } });
      expect((await driver.get(rolledBack.id))?.state).toBe('ready');
      await client.query('ROLLBACK');
      expect(await driver.get(rolledBack.id)).toBeUndefined();

      await client.query('BEGIN');
      const kept = await driver.enqueue({ name: 'order.placed', payload: { n: 2 } });
      await client.query('COMMIT');
      await driver.close();
      // The driver closed nothing of the app's: the client still answers.
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM "${name}".jobs`);
      expect(rows).toEqual([{ n: 1 }]);
      expect((await (await adminPool()).query(`SELECT id FROM "${name}".jobs`)).rows).toEqual([
        { id: kept.id },
      ]);
    } finally {
      await client.end();
    }
  });

  it('an unreachable server answers DRIVER_UNAVAILABLE with the pg error as its cause', async () => {
    const driver = createPgDriver({ connectionString: 'postgres://postgres@127.0.0.1:1/none' });
    try {
      const error = await driver.enqueue({ name: 'x' }).catch((thrown: unknown) => thrown);
      expect(isBerthError(error, 'DRIVER_UNAVAILABLE')).toBe(true);
      if (!isBerthError(error)) return;
      expect(error.meta).toMatchObject({ driver: 'pg', operation: 'enqueue' });
      expect(error.cause).toBeInstanceOf(Error);
      await expect(driver.migrate()).rejects.toMatchObject({ code: 'DRIVER_UNAVAILABLE' });
    } finally {
      await driver.close();
    }
  });
});
