import { randomUUID } from 'node:crypto';
import {
  type DriverFactory,
  type DriverUnderTest,
  type SiblingContext,
  withCapabilities,
} from '@berth/conformance';
import type { Driver } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { createPgDriver, migrate, type PgDriverOptions } from '../src/index.js';
import { POOL_DEFAULTS } from '../src/pool-options.js';
import { MIGRATIONS } from '../src/sql/migrations/index.js';
import { dropEmptiedSchemas, giveBackSchema, takeSchema } from './kit-schemas.js';

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
  sibling(context: SiblingContext): Promise<Driver>;
}

let kitPool: pg.Pool | undefined;

/**
 * The pool every kit case's driver is given (`pool`, a configuration the driver supports as its
 * own): its connections stay open from case to case. A driver on its own connection string opens
 * new backends for every case, and each new backend loads the catalog and compiles the schema's
 * functions again: most of the server's CPU in the kit. Its sessions commit asynchronously: a
 * commit is visible to every session at once either way, so no answer changes, and the shared
 * server is never crashed (group restart runs on a private server with synchronous commits), so
 * the disk's flush (4–7 ms a commit on this machine's disk under load) is not worth waiting for.
 * Siblings, restarts and app transactions keep connections of their own.
 */
async function sharedKitPool(): Promise<pg.Pool> {
  if (kitPool === undefined) {
    kitPool = new pg.Pool({
      connectionString: await serverUrl('pg'),
      max: POOL_DEFAULTS.max,
      options: '-c synchronous_commit=off',
    });
    kitPool.on('error', () => {});
  }
  return kitPool;
}

/** How long a closed case's statements may still run on the shared pool. */
const SETTLE_WITHIN_MS = 30_000;

/**
 * Waits until no connection of the shared pool is checked out. close() never ends a pool the app
 * passed in, so a statement a case left in flight (a call the close made fail, a worker's last
 * settle) may still commit after close resolved; on a pool of its own, close waited for it in
 * pool.end(). Emptying the schema before it lands would leave its row for the next case (seen:
 * a jobs_listed row, and the next case's first enqueue refused as a duplicate key).
 */
async function settled(pool: pg.Pool): Promise<void> {
  const since = Date.now();
  while (pool.totalCount > pool.idleCount || pool.waitingCount > 0) {
    if (Date.now() - since > SETTLE_WITHIN_MS) {
      throw new Error(
        `the kit's shared pool still had ${pool.totalCount - pool.idleCount} connections in use ${SETTLE_WITHIN_MS} ms after a case's driver closed`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Drops the emptied schemas and ends the shared pool: a file's cases on pgFactory have run. */
export async function closePgFactory(): Promise<void> {
  await dropEmptiedSchemas();
  const pool = kitPool;
  kitPool = undefined;
  await pool?.end();
}

export const pgFactory: DriverFactory = withCapabilities(
  async ({ clock, hooks, lifecycleRetention }) => {
    const url = await serverUrl('pg');
    const schema = await takeSchema();
    const driver = createPgDriver({
      pool: await sharedKitPool(),
      schema,
      clock,
      hooks,
      lifecycleRetention,
    });
    const underTest: PgUnderTest = {
      driver,
      dispose: async () => {
        await driver.close();
        await settled(await sharedKitPool());
        await giveBackSchema(schema);
      },
      sibling: async (context) => createPgDriver({ connectionString: url, schema, ...context }),
      // An app's client after BEGIN: every call of the driver given to fn runs in its transaction.
      async inAppTransaction(fn) {
        const client = new pg.Client({ connectionString: url });
        client.on('error', () => {});
        await client.connect();
        const inApp = createPgDriver({
          executor: client,
          schema,
          clock,
          hooks,
          lifecycleRetention,
        });
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
  },
  { inAppTransaction: true },
);
