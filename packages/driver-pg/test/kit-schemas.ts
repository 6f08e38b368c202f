import { migrate } from '../src/index.js';
import { adminPool, dropSchema, freshSchema } from './pg-factory.js';

/**
 * Migrated schemas the kit's cases hand back, emptied, for the next case: creating and
 * migrating one costs ~120 ms of server DDL, emptying a small one ~3 ms, and the kit opens a
 * driver for each of its ~420 cases and 200 differential runs. A schema a case filled with many
 * rows is dropped instead (its dead rows would slow the cases after it), and only the kit's
 * factory reuses schemas: its cases never change a schema's objects, only their rows.
 */
const emptied: string[] = [];

/** Rows a case may leave for its schema to be reused. */
const REUSE_MAX_ROWS = 1_000;

/** A migrated schema holding no rows: one handed back, or a new one. */
export async function takeSchema(): Promise<string> {
  const reused = emptied.pop();
  if (reused !== undefined) return reused;
  const schema = freshSchema();
  await migrate({ executor: await adminPool(), schema });
  return schema;
}

/** A schema's tables (but migrations) and identity columns, read once: cases never change them. */
interface Layout {
  tables: string[];
  identities: string[];
}
const layouts = new Map<string, Layout>();

async function layoutOf(schema: string): Promise<Layout> {
  const known = layouts.get(schema);
  if (known !== undefined) return known;
  const admin = await adminPool();
  const { rows } = await admin.query<{ table_name: string; column_name: string | null }>(
    `SELECT t.tablename AS table_name, c.column_name
       FROM pg_tables t
       LEFT JOIN information_schema.columns c
         ON c.table_schema = t.schemaname AND c.table_name = t.tablename AND c.is_identity = 'YES'
      WHERE t.schemaname = $1 AND t.tablename <> 'migrations'`,
    [schema],
  );
  const layout: Layout = {
    tables: [...new Set(rows.map((row) => `"${schema}"."${row.table_name}"`))],
    identities: rows
      .filter((row) => row.column_name !== null)
      .map(
        (row) =>
          `ALTER TABLE "${schema}"."${row.table_name}" ALTER COLUMN "${row.column_name}" RESTART`,
      ),
  };
  layouts.set(schema, layout);
  return layout;
}

/**
 * Empties `schema` for the next case (its driver is closed) and restarts its identities, so a
 * reused schema answers as a new one; drops it instead if the case left many rows.
 */
export async function giveBackSchema(schema: string): Promise<void> {
  const admin = await adminPool();
  const { tables, identities } = await layoutOf(schema);
  const client = await admin.connect();
  let deleted = 0;
  try {
    await client.query('BEGIN');
    // Triggers (jobs_listed's) and their work are not wanted: every table is emptied anyway.
    await client.query('SET LOCAL session_replication_role = replica');
    for (const table of tables)
      deleted += (await client.query(`DELETE FROM ${table}`)).rowCount ?? 0;
    for (const restart of identities) await client.query(restart);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
    layouts.delete(schema);
    await dropSchema(schema);
    throw error;
  }
  client.release();
  if (deleted <= REUSE_MAX_ROWS) emptied.push(schema);
  else {
    layouts.delete(schema);
    await dropSchema(schema);
  }
}

/** Drops the schemas waiting for a next case: the file's cases have run. */
export async function dropEmptiedSchemas(): Promise<void> {
  for (const schema of emptied.splice(0)) {
    layouts.delete(schema);
    await dropSchema(schema);
  }
}
