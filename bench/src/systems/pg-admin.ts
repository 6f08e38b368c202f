import pg from 'pg';

/** Runs `work` on one short-lived connection. */
export async function withPg<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * ANALYZE every table of `schema` (partitions included), as autovacuum would leave them once it
 * has seen the backlog: the planner then plans with real row counts instead of a fresh table's.
 */
export async function analyzeSchema(url: string, schema: string): Promise<void> {
  await withPg(url, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      "SELECT format('%I.%I', schemaname, relname) AS name FROM pg_stat_user_tables WHERE schemaname = $1",
      [schema],
    );
    for (const { name } of rows) await client.query(`ANALYZE ${name}`);
  });
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  await withPg(url, (client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
}
