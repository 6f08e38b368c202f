import { randomUUID } from 'node:crypto';
import type { DriverFactory, DriverUnderTest } from '@berth/conformance';
import type { Clock, Driver, DriverHooks } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { createPgDriver, migrate, type PgDriverOptions } from '../src/index.js';
import { MIGRATIONS } from '../src/sql/migrations/index.js';
import { giveBackSchema, takeSchema } from './kit-schemas.js';

/** A schema name no other test uses. */
export const freshSchema = (): string => `t_${randomUUID().replaceAll('-', '').slice(0, 20)}`;

let admin: pg.Pool | undefined;

/** A small pool for the tests' own statements (dropping schemas, killing backends). */
export async function adminPool(): Promise<pg.Pool> {
  if (admin === undefined) {
    admin = new pg.Pool({ connectionString: await serverUrl('pg'), max: 2 });
    admin.on('error', () => {});
  }
  return admin;
}

export async function dropSchema(schema: string): Promise<void> {
  const pool = await adminPool();
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/** Creates `schema` as the driver's migrations up to `version` left it (an older deployment). */
export async function schemaAtVersion(schema: string, version: number): Promise<void> {
  const admin = await adminPool();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.query(
    `CREATE TABLE "${schema}".migrations (version integer PRIMARY KEY,
       applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  for (const migration of MIGRATIONS.filter((m) => m.version <= version)) {
    await admin.query(migration.text(`"${schema}"`));
  }
}

/** A migrated pg driver on a schema of its own; `dispose` closes it and drops the schema. */
export async function openPgDriver(options: Omit<PgDriverOptions, 'schema'> = {}) {
  const schema = freshSchema();
  const connection =
    options.pool !== undefined || options.executor !== undefined
      ? {}
      : { connectionString: await serverUrl('pg') };
  const driver = createPgDriver({ ...connection, ...options, schema });
  // Through the tests' long-lived admin connections: DDL on a warm backend (its catalog caches
  // filled) costs a third of what it costs on the fresh connection each case's driver opens,
  // and every kit case starts with it. `migrate.test.ts` runs `driver.migrate()` itself.
  await migrate({ executor: await adminPool(), schema });
  return {
    driver,
    schema,
    dispose: async () => {
      await driver.close();
      await dropSchema(schema);
    },
  };
}

/** The kit's DriverUnderTest with the sibling (group concurrency) the pg driver offers too. */
interface PgUnderTest extends DriverUnderTest {
  /** Another driver over the same schema, on its own connections: a second process. */
  sibling(context: { readonly clock: Clock; readonly hooks: DriverHooks }): Promise<Driver>;
}

export const pgFactory: DriverFactory = async ({ clock, hooks }) => {
  const url = await serverUrl('pg');
  const schema = await takeSchema();
  const driver = createPgDriver({ connectionString: url, schema, clock, hooks });
  const underTest: PgUnderTest = {
    driver,
    dispose: async () => {
      await driver.close();
      await giveBackSchema(schema);
    },
    sibling: async (context) => createPgDriver({ connectionString: url, schema, ...context }),
    // An app's client after BEGIN: every call of the driver given to fn runs in its transaction.
    async inAppTransaction(fn) {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => {});
      await client.connect();
      const inApp = createPgDriver({ executor: client, schema, clock, hooks });
      try {
        await client.query('BEGIN');
        await fn(inApp);
        await client.query('COMMIT');
      } finally {
        await client.query('ROLLBACK').catch(() => {});
        await inApp.close();
        await client.end();
      }
    },
  };
  return underTest;
};
