import { isBerthError } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver, LATEST_VERSION, migrationStatus } from '../src/index.js';
import { MIGRATIONS } from '../src/sql/migrations/index.js';
import { adminPool, dropSchema, freshSchema } from './pg-factory.js';

describe('pg migration status', () => {
  let url: string;
  const schemas: string[] = [];
  const schema = () => {
    const made = freshSchema();
    schemas.push(made);
    return made;
  };
  const every = MIGRATIONS.map((migration) => migration.version);

  beforeAll(async () => {
    url = await serverUrl('pg');
  });

  afterAll(async () => {
    for (const made of schemas) await dropSchema(made);
  });

  it('a schema nobody migrated answers every version pending, and is not created by asking', async () => {
    const name = schema();
    const driver = createPgDriver({ connectionString: url, schema: name });
    try {
      expect(await driver.migrationStatus()).toEqual({
        schema: name,
        version: 0,
        latest: LATEST_VERSION,
        applied: [],
        pending: every,
      });
      const { rows } = await (await adminPool()).query(
        'SELECT 1 FROM information_schema.schemata WHERE schema_name = $1',
        [name],
      );
      expect(rows).toEqual([]);
    } finally {
      await driver.close();
    }
  });

  it('after migrate every version is applied, with the instant it was applied, and none pending', async () => {
    const name = schema();
    const driver = createPgDriver({ connectionString: url, schema: name });
    try {
      const before = Date.now();
      await driver.migrate();
      const status = await driver.migrationStatus();
      expect(status).toMatchObject({ schema: name, version: LATEST_VERSION, pending: [] });
      expect(status.applied.map((migration) => migration.version)).toEqual(every);
      for (const migration of status.applied) {
        // The server's clock stamps applied_at: allow it to differ from ours by a minute.
        expect(Math.abs(migration.appliedAt - before)).toBeLessThan(60_000);
      }
    } finally {
      await driver.close();
    }
  });

  it('a schema missing a version lists exactly that version pending', async () => {
    const name = schema();
    const driver = createPgDriver({ connectionString: url, schema: name });
    try {
      await driver.migrate();
      await (await adminPool()).query(`DELETE FROM "${name}".migrations WHERE version = $1`, [
        LATEST_VERSION,
      ]);
      const status = await driver.migrationStatus();
      expect(status.pending).toEqual([LATEST_VERSION]);
      expect(status.applied.map((migration) => migration.version)).toEqual(
        every.filter((version) => version !== LATEST_VERSION),
      );
    } finally {
      await driver.close();
    }
  });

  it('the standalone migrationStatus reads through an app client', async () => {
    const name = schema();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      expect((await migrationStatus({ executor: client, schema: name })).pending).toEqual(every);
    } finally {
      await client.end();
    }
  });

  it('a closed driver answers DRIVER_CLOSED, like every other call', async () => {
    const driver = createPgDriver({ connectionString: url, schema: schema() });
    await driver.close();
    const error = await driver.migrationStatus().catch((thrown: unknown) => thrown);
    expect(isBerthError(error, 'DRIVER_CLOSED')).toBe(true);
  });

  it('an unreachable server answers DRIVER_UNAVAILABLE', async () => {
    const driver = createPgDriver({ connectionString: 'postgres://postgres@127.0.0.1:1/none' });
    try {
      const error = await driver.migrationStatus().catch((thrown: unknown) => thrown);
      expect(isBerthError(error, 'DRIVER_UNAVAILABLE')).toBe(true);
    } finally {
      await driver.close();
    }
  });
});
