import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { MIGRATIONS } from '../src/sql/migrations/index.js';

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
const digests = (schema: string) =>
  Object.fromEntries(MIGRATIONS.map((m) => [m.version, digest(m.text(schema))]));

/**
 * A schema records which versions it applied, never their text: a migration edited after its
 * release would leave schemas made before and after the edit different under one version. So
 * each released text (`src/sql/migrations/NNNNNN.sql`, its header left out) is pinned here. To
 * change the schema, add a migration.
 */
it('every released migration text is exactly as released: a change to the schema is a new migration', () => {
  expect(digests('"berth"')).toEqual({
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
    16: '9ee962cf9af2874c',
    17: 'f85b5a034e14cf07',
  });
});

/**
 * The texts as the TypeScript modules built them for another schema, before the migrations were
 * frozen as .sql files: `:BERTH_SCHEMA` stands for the schema everywhere the modules put it, in
 * string literals too, so a schema migrated by an older release is at the same versions here.
 */
it('a schema other than the default gets each migration exactly as the releases before the .sql files sent it', () => {
  expect(digests('"berth_jobs"')).toEqual({
    1: '7a2b987f7d2f0148',
    2: 'd2bd336a0965b088',
    3: 'ecc6579284d76f20',
    4: '27fc3f9b91db7f2e',
    5: '2586c70fa713fb00',
    6: '4383b1f893e402e7',
    7: 'ae060bb80e177210',
    8: 'c7e4c5e3a847e25d',
    9: '4508e190ff7fcf1f',
    10: '831c416efa937e66',
    11: 'bc33c03eb442f11d',
    12: 'f6c260dd8c8db791',
    13: 'c31dc16aae04c612',
    14: '0459244dfa90503b',
    15: '1f954c9f9513d162',
    16: '109f846ef8bb6ebb',
    17: '5d3f403f4ce2da46',
  });
});
