import { writeFileSync } from 'node:fs';
import { serverUrl } from '@berth/test-servers';
import { dumpMigratedSchema, SCHEMA_DUMP } from './schema-dump.js';

// Writes schema.sql again after a new migration; test/schema-dump.test.ts compares it with a
// freshly migrated schema.
writeFileSync(SCHEMA_DUMP, await dumpMigratedSchema(await serverUrl('pg')));
console.log(`wrote ${SCHEMA_DUMP.pathname}`);
