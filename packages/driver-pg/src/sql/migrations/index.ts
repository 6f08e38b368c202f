import { MIGRATION_TEXTS } from './generated.js';

export interface Migration {
  readonly version: number;
  /** The statements for the quoted schema, ending with the insert that records the version. */
  readonly text: (schema: string) => string;
}

/**
 * Stands for the quoted schema (`"berth"`) in every migration's text, also inside string
 * literals (a lock key, a regclass name): the schema is a plain identifier (`quoteSchema`), so
 * it needs no escaping there either.
 */
const SCHEMA_PLACEHOLDER = ':BERTH_SCHEMA';

/**
 * Every migration, in version order: `NNNNNN.sql` beside this module, frozen as released and
 * compiled into `generated.ts` (`pnpm --filter @berth/driver-pg generate`). A change to the
 * schema is a new file.
 */
export const MIGRATIONS: readonly Migration[] = MIGRATION_TEXTS.map(({ version, text }) => ({
  version,
  text: (schema: string) => text.replaceAll(SCHEMA_PLACEHOLDER, () => schema),
}));

export const LATEST_VERSION = MIGRATIONS.at(-1)?.version ?? 0;
