import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { createPgDriver, type PgDriver } from '../src/index.js';
import { adminPool } from './pg-factory.js';

/** One connection of its own, with a driver that sends its statements through it. */
export interface Session {
  readonly client: pg.Client;
  readonly pid: number;
  /** The driver on this connection: inside `BEGIN` it works in the open transaction. */
  readonly driver: PgDriver;
  close(): Promise<void>;
}

export async function openSession(schema: string): Promise<Session> {
  const client = new pg.Client({ connectionString: await serverUrl('pg') });
  client.on('error', () => {});
  await client.connect();
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const driver = createPgDriver({ executor: client, schema });
  return {
    client,
    pid: rows[0]?.pid ?? 0,
    driver,
    close: async () => {
      await driver.close();
      await client.end();
    },
  };
}

/** Settles to true when `promise` settles; never rejects. */
export const settled = (promise: Promise<unknown>) => {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  return () => done;
};

/**
 * Polls until a backend running a statement that contains `fragment` waits on a lock held by
 * one of `holders` (any holder when empty), or until `finished()` says the call under test
 * already answered. Answers the blocked backend's pid, or undefined when it finished unblocked.
 */
export async function blockedOn(
  fragment: string,
  finished: () => boolean,
  holders: readonly number[] = [],
): Promise<number | undefined> {
  const admin = await adminPool();
  for (let poll = 0; poll < 2_000; poll += 1) {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
       WHERE wait_event_type = 'Lock' AND position($1 IN query) > 0
         AND (cardinality($2::int[]) = 0 OR pg_blocking_pids(pid) && $2::int[])
       LIMIT 1`,
      [fragment, holders],
    );
    if (rows[0] !== undefined) return rows[0].pid;
    if (finished()) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`no statement containing ${fragment} blocked or finished`);
}
