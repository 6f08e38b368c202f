import { createScheduler, createWorker, defineJob, isBerthError } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { afterEach, describe, expect, it } from 'vitest';
import { createPgDriver, type PgDriver } from '../src/index.js';
import { LATEST_VERSION, MIGRATIONS } from '../src/sql/migrations/index.js';
import { adminPool, dropSchema, freshSchema } from './pg-factory.js';

const quiet = () => {};
const logger = { debug: quiet, info: quiet, warn: quiet, error: quiet };
const task = defineJob({ name: 'task', run: async () => {} });

let open: { driver: PgDriver; schema: string } | undefined;
afterEach(async () => {
  if (open === undefined) return;
  await open.driver.close();
  await dropSchema(open.schema);
  open = undefined;
});

async function unmigrated(): Promise<PgDriver> {
  const schema = freshSchema();
  const driver = createPgDriver({ connectionString: await serverUrl('pg'), schema });
  open = { driver, schema };
  return driver;
}

function expectNotMigrated(error: unknown, schema: string) {
  expect(isBerthError(error, 'DRIVER_NOT_MIGRATED'), String(error)).toBe(true);
  if (!isBerthError(error, 'DRIVER_NOT_MIGRATED')) return;
  expect(error.meta).toMatchObject({ driver: 'pg', schema, required: LATEST_VERSION });
  expect(error.fix).toContain('await driver.migrate()');
  expect(error.fix).toContain(schema);
}

describe('a pg schema nobody migrated', () => {
  it('worker.start() rejects at once with DRIVER_NOT_MIGRATED, naming the schema and the migrate call', async () => {
    const driver = await unmigrated();
    const worker = createWorker({
      driver,
      jobs: [task],
      concurrency: 1,
      visibilityTimeoutMs: 30_000,
      logger,
    });
    const error = await worker.start().catch((thrown: unknown) => thrown);
    expectNotMigrated(error, open?.schema ?? '');
    expect(isBerthError(error, 'DRIVER_NOT_MIGRATED') && error.meta.version).toBe(0);
    await worker.stop({ graceMs: 0 });
  });

  it('scheduler.start() rejects at once with DRIVER_NOT_MIGRATED', async () => {
    const driver = await unmigrated();
    const scheduler = createScheduler({
      driver,
      schedules: [{ name: 's', cron: '* * * * *', job: task }],
    });
    expectNotMigrated(
      await scheduler.start().catch((thrown: unknown) => thrown),
      open?.schema ?? '',
    );
    await scheduler.stop();
  });

  it('a direct enqueue, claim or lease call answers DRIVER_NOT_MIGRATED, not DRIVER_UNAVAILABLE', async () => {
    const driver = await unmigrated();
    const schema = open?.schema ?? '';
    const refusals = await Promise.all(
      [
        driver.enqueue({ name: 'task' }),
        driver.claim({ queues: ['default'], workerId: 'w', visibilityTimeoutMs: 1_000 }),
        driver.leases.acquire('leader', 'a', 1_000),
        driver.check(),
      ].map((call) => call.catch((thrown: unknown) => thrown)),
    );
    for (const refusal of refusals) expectNotMigrated(refusal, schema);
  });

  it('check answers DRIVER_NOT_MIGRATED for a schema older than the driver, and resolves once migrated', async () => {
    const driver = await unmigrated();
    const schema = open?.schema ?? '';
    await driver.migrate();
    await expect(driver.check()).resolves.toBeUndefined();
    const admin = await adminPool();
    await admin.query(`DELETE FROM "${schema}".migrations WHERE version = $1`, [LATEST_VERSION]);
    const error = await driver.check().catch((thrown: unknown) => thrown);
    expectNotMigrated(error, schema);
    // The version before the latest (versions need not be consecutive).
    expect(isBerthError(error, 'DRIVER_NOT_MIGRATED') && error.meta.version).toBe(
      MIGRATIONS.at(-2)?.version,
    );
    await driver.migrate();
    await expect(driver.check()).resolves.toBeUndefined();
  });
});
