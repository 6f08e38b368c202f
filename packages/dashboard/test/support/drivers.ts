import { randomUUID } from 'node:crypto';
import type { Driver } from '@berth/core';
import { createPgDriver } from '@berth/driver-pg';
import { createRedisDriver } from '@berth/driver-redis';
import { dropPgSchema, dropRedisPrefix, serverUrl } from '@berth/test-servers';

export interface OpenedDriver {
  readonly driver: Driver;
  dispose(): Promise<void>;
}

const fresh = (): string => randomUUID().replaceAll('-', '').slice(0, 16);

/** A migrated pg driver on a schema of its own, dropped at dispose. */
export async function openPg(): Promise<OpenedDriver> {
  const url = await serverUrl('pg');
  const schema = `dash_${fresh()}`;
  const driver = createPgDriver({ connectionString: url, schema });
  await driver.migrate();
  return {
    driver,
    dispose: async () => {
      await driver.close();
      await dropPgSchema(url, schema);
    },
  };
}

/** A redis driver on a key prefix of its own, whose keys are deleted at dispose. */
export async function openRedis(): Promise<OpenedDriver> {
  const url = await serverUrl('redis');
  const prefix = `dash-${fresh()}`;
  const driver = createRedisDriver({ url, prefix });
  return {
    driver,
    dispose: async () => {
      await driver.close();
      await dropRedisPrefix(url, prefix);
    },
  };
}
