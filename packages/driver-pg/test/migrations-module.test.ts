import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { GENERATED_MODULE, migrationsModule } from '../scripts/migrations-module.js';

// The module is committed rather than built, so tsc and vitest need no codegen step: this test
// is what keeps it from drifting from the .sql files.
it('src/sql/migrations/generated.ts is exactly what the .sql files compile to', () => {
  expect(
    readFileSync(GENERATED_MODULE, 'utf8'),
    'generated.ts is stale: run pnpm --filter @berth/driver-pg generate',
  ).toBe(migrationsModule());
});
