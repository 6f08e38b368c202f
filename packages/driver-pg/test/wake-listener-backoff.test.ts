import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { pollUntil, serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { adminPool, dropSchema, freshSchema } from './pg-factory.js';

describe('pg wake listener', () => {
  it('a subscribe during the reconnect backoff leaves one listener connection, which close ends, and no doubled wake-ups', async () => {
    const schema = freshSchema();
    const appName = `berth-wake-backoff-${randomUUID().slice(0, 8)}`;
    const pool = new pg.Pool({
      connectionString: await serverUrl('pg'),
      application_name: appName,
      max: 2,
    });
    pool.on('error', () => {});
    const driver = createPgDriver({ pool, schema });
    const listenerPids = async () => {
      const { rows } = await (await adminPool()).query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN %'`,
        [appName],
      );
      return rows.map((row) => row.pid);
    };
    const end = pg.Client.prototype.end;
    try {
      await driver.migrate();
      const first: string[] = [];
      const second: string[] = [];
      const stopFirst = await driver.subscribe?.(['wake'], (queue) => first.push(queue));
      if (stopFirst === undefined) throw new Error('the pg driver should offer subscribe');
      const [pid] = await listenerPids();

      // The listener ends the client it lost at once, and only then waits out its backoff.
      let noticed = () => {};
      const lost = new Promise<void>((resolve) => {
        noticed = resolve;
      });
      vi.spyOn(pg.Client.prototype, 'end').mockImplementation(function (this: pg.Client) {
        noticed();
        return (end as () => Promise<void>).call(this);
      } as typeof end);
      await (await adminPool()).query('SELECT pg_terminate_backend($1)', [pid]);
      await lost;
      vi.restoreAllMocks();
      const stopSecond = await driver.subscribe?.(['wake'], (queue) => second.push(queue));
      if (stopSecond === undefined) throw new Error('the pg driver should offer subscribe');

      // Past the backoff: still exactly one listener, and the lost one's subscriber was woken.
      await sleep(400);
      expect(await listenerPids()).toHaveLength(1);
      expect(first.length).toBeGreaterThan(0);

      first.length = 0;
      second.length = 0;
      await driver.enqueue({ name: 'x', queue: 'wake' });
      await pollUntil(() => first.length > 0 && second.length > 0, { everyMs: 10 });
      await sleep(200);
      expect(first).toEqual(['wake']);
      expect(second).toEqual(['wake']);

      await stopFirst();
      await stopSecond();
      await driver.close();
      await pollUntil(async () => (await listenerPids()).length === 0, {
        withinMs: 3_000,
        everyMs: 10,
      });
    } finally {
      vi.restoreAllMocks();
      await driver.close();
      await pool.end();
      await dropSchema(schema);
    }
  });
});
