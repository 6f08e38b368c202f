import { randomUUID } from 'node:crypto';
import type { DriverFactory } from '@berth/conformance';
import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { createPgDriver, type PgDriverOptions } from '../src/index.js';

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

/** A migrated pg driver on a schema of its own; `dispose` closes it and drops the schema. */
export async function openPgDriver(options: Omit<PgDriverOptions, 'schema'> = {}) {
  const schema = freshSchema();
  const connection =
    options.pool !== undefined || options.executor !== undefined
      ? {}
      : { connectionString: await serverUrl('pg') };
  const driver = createPgDriver({ ...connection, ...options, schema });
  await driver.migrate();
  return {
    driver,
    schema,
    dispose: async () => {
      await driver.close();
      await dropSchema(schema);
    },
  };
}

export const pgFactory: DriverFactory = async ({ clock, hooks }) => {
  const { driver, schema, dispose } = await openPgDriver({ clock, hooks });
  const connectionString = await serverUrl('pg');
  return {
    driver,
    // Its own pool over the same schema: another process of the deployment.
    sibling: async (context) => createPgDriver({ ...context, connectionString, schema }),
    dispose,
  };
};
