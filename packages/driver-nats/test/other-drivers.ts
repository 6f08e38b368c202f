import { randomUUID } from 'node:crypto';
import type { DriverFactory } from '@berth/conformance';
import { createMemoryDriver } from '@berth/driver-memory';
import { createPgDriver } from '@berth/driver-pg';
import { createRedisDriver } from '@berth/driver-redis';
import { dropPgSchema, dropRedisPrefix, serverUrl } from '@berth/test-servers';

/**
 * The other drivers, through their public exports only (no driver reads another's source), for
 * the tests that hold all four to the same answers.
 */

export const memoryFactory: DriverFactory = async ({ clock, hooks, lifecycleRetention }) => {
  const driver = createMemoryDriver({ clock, hooks, lifecycleRetention });
  return { driver, dispose: () => driver.close() };
};

export const pgFactory: DriverFactory = async ({ clock, hooks, lifecycleRetention }) => {
  const url = await serverUrl('pg');
  const schema = `t_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  const driver = createPgDriver({
    connectionString: url,
    schema,
    clock,
    hooks,
    lifecycleRetention,
  });
  await driver.migrate();
  return {
    driver,
    dispose: async () => {
      await driver.close();
      await dropPgSchema(url, schema);
    },
  };
};

export const redisFactory: DriverFactory = async ({ clock, hooks, lifecycleRetention }) => {
  const url = await serverUrl('redis');
  const prefix = `berth-test-${randomUUID().slice(0, 12)}`;
  const driver = createRedisDriver({ url, prefix, clock, hooks, lifecycleRetention });
  return {
    driver,
    dispose: async () => {
      await driver.close();
      await dropRedisPrefix(url, prefix);
    },
  };
};
