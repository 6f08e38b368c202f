import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { MIGRATIONS } from '../src/sql/migrations/index.js';

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/**
 * A schema records which versions it applied, never their text: a migration edited after its
 * release would leave schemas made before and after the edit different under one version. So
 * each released text is pinned here (for the default schema), also the parts other modules
 * build (migration 4's function body is migrations/000004-claim-body.ts, migration 6's is
 * migrations/000006-claim-body.ts, migration 9's is claim-body.ts). To change the schema, add a
 * migration.
 */
it('every released migration text is exactly as released: a change to the schema is a new migration', () => {
  expect(Object.fromEntries(MIGRATIONS.map((m) => [m.version, digest(m.text('"berth"'))]))).toEqual(
    {
      1: '383d43a5d1cfd849',
      2: '2c32d6d47790ca56',
      3: 'c9a8f48f2fde9915',
      4: 'bd299af24b410819',
      5: '76fe97787f221af0',
      6: 'f24f83f57de198bd',
      7: '763216947bd92332',
      8: 'feb0a24bdb360876',
      9: 'd138854355c16931',
      10: 'e3e39a106456f265',
      11: 'c37c0ea5db15b36b',
      12: '05fcea2fc6d64180',
      13: 'fa909155a58c8265',
      14: 'e7d5f01b00e6853d',
      15: 'a550e3aeb7156d89',
    },
  );
});
