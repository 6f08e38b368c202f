import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import { migrate } from '../src/migrate.js';

/** The committed dump of the schema every migration leaves. */
export const SCHEMA_DUMP = new URL('../schema.sql', import.meta.url);

/** The schema name the dump is written for, whatever schema it was taken from. */
const DUMPED_AS = 'berth';

/**
 * pg_dump's lines that change from run to run or from machine to machine, never with the
 * schema: its version, the session settings it restores under, and the `\restrict` key
 * (random per dump since PostgreSQL 15.14).
 */
const VOLATILE = [
  /^-- Dumped (from database|by pg_dump) version /,
  /^\\(un)?restrict /,
  /^SET /,
  /^SELECT pg_catalog\.set_config\('search_path'/,
];

/**
 * Migrates a schema of its own on the server at `url` and answers its `pg_dump --schema-only`,
 * written for the schema `berth`: tables, columns, constraints, indexes, functions and triggers,
 * in pg_dump's stable order. The schema is dropped afterwards.
 */
export async function dumpMigratedSchema(url: string): Promise<string> {
  const schema = `berth_dump_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await migrate({ executor: pool, schema });
    const { stdout } = await promisify(execFile)(
      'pg_dump',
      ['--schema-only', '--no-owner', '--no-privileges', `--schema=${schema}`, `--dbname=${url}`],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    return normalise(stdout, schema);
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => pool.end());
  }
}

function normalise(dump: string, schema: string): string {
  const kept = dump.split('\n').filter((line) => !VOLATILE.some((pattern) => pattern.test(line)));
  return `${kept
    .join('\n')
    .replaceAll(schema, DUMPED_AS)
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}
