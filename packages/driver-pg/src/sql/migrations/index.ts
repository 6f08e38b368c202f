import { MIGRATION_000001 } from './000001.js';
import { MIGRATION_000002 } from './000002.js';
import { MIGRATION_000003 } from './000003.js';
import { MIGRATION_000004 } from './000004.js';
import { MIGRATION_000005 } from './000005.js';
import { MIGRATION_000006 } from './000006.js';
import { MIGRATION_000007 } from './000007.js';
import { MIGRATION_000008 } from './000008.js';
import { MIGRATION_000009 } from './000009.js';
import { MIGRATION_000010 } from './000010.js';
import { MIGRATION_000011 } from './000011.js';
import { MIGRATION_000012 } from './000012.js';
import { MIGRATION_000013 } from './000013.js';
import { MIGRATION_000014 } from './000014.js';
import { MIGRATION_000015 } from './000015.js';

export interface Migration {
  readonly version: number;
  /** The statements for the quoted schema, ending with the insert that records the version. */
  readonly text: (schema: string) => string;
}

/** Every migration, in version order. A new one is a new module appended here. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, text: MIGRATION_000001 },
  { version: 2, text: MIGRATION_000002 },
  { version: 3, text: MIGRATION_000003 },
  { version: 4, text: MIGRATION_000004 },
  { version: 5, text: MIGRATION_000005 },
  { version: 6, text: MIGRATION_000006 },
  { version: 7, text: MIGRATION_000007 },
  { version: 8, text: MIGRATION_000008 },
  { version: 9, text: MIGRATION_000009 },
  { version: 10, text: MIGRATION_000010 },
  { version: 11, text: MIGRATION_000011 },
  { version: 12, text: MIGRATION_000012 },
  { version: 13, text: MIGRATION_000013 },
  { version: 14, text: MIGRATION_000014 },
  { version: 15, text: MIGRATION_000015 },
];

export const LATEST_VERSION = MIGRATIONS.at(-1)?.version ?? 0;
