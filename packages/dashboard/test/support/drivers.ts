import { randomUUID } from 'node:crypto';
import type { Driver } from '@berth/core';
import { createPgDriver } from '@berth/driver-pg';
import { createRedisDriver } from '@berth/driver-redis';
import { serverUrl } from '@berth/test-servers';
import { Redis } from 'ioredis';
import pg from 'pg';

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
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await admin.end();
      }
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
      const admin = new Redis(url, { maxRetriesPerRequest: 1 });
      try {
        let cursor = '0';
        do {
          const [next, keys] = await admin.scan(cursor, 'MATCH', `{${prefix}}:*`, 'COUNT', 1_000);
          cursor = next;
          if (keys.length > 0) await admin.unlink(...keys);
        } while (cursor !== '0');
      } finally {
        admin.disconnect();
      }
    },
  };
}
