import { readFileSync } from 'node:fs';
import { serverUrl } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { dumpMigratedSchema, SCHEMA_DUMP } from '../scripts/schema-dump.js';

/**
 * schema.sql is the schema every migration leaves, as pg_dump (PostgreSQL 15) writes it: a
 * migration's effect reads as a diff of it, and a change to the schema that no one meant (an
 * edited migration, a dropped index) fails here.
 */
it('a freshly migrated schema is exactly schema.sql', async () => {
  expect(
    await dumpMigratedSchema(await serverUrl('pg')),
    'the migrated schema differs from schema.sql: if a new migration meant it, run pnpm --filter @berth/driver-pg schema:dump',
  ).toBe(readFileSync(SCHEMA_DUMP, 'utf8'));
});
