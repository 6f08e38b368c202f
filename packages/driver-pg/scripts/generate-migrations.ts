import { writeFileSync } from 'node:fs';
import { GENERATED_MODULE, migrationsModule } from './migrations-module.js';

// The module is committed, so tsc and the tests need no codegen step;
// test/migrations-module.test.ts fails while it differs from what this writes.
writeFileSync(GENERATED_MODULE, migrationsModule());
console.log(`wrote ${GENERATED_MODULE.pathname}`);
