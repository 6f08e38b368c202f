import { isBerthError } from '@berth/core/driver';
import { pgUnavailable } from './access-refused.js';
import type { PgExecutor } from './executor.js';
import { LATEST_VERSION, MIGRATIONS } from './sql/migrations/index.js';
import { appliedMigrationsSql, MIGRATIONS_TABLE_EXISTS } from './sql/migrations/status.js';
import { DEFAULT_SCHEMA, quoteSchema } from './sql/schema.js';

/** One migration a schema holds, and when it was applied (epoch ms). */
export interface AppliedMigration {
  readonly version: number;
  readonly appliedAt: number;
}

/** Which of this driver's migrations a schema holds, and which `migrate()` would apply. */
export interface MigrationStatus {
  readonly schema: string;
  /** The highest applied version; 0 when none is. */
  readonly version: number;
  /** The latest version this driver knows. */
  readonly latest: number;
  /** Applied versions, oldest first. */
  readonly applied: readonly AppliedMigration[];
  /** This driver's versions the schema does not hold yet, in the order `migrate()` applies them. */
  readonly pending: readonly number[];
}

export interface MigrationStatusOptions {
  /** A pool, a client or an open transaction. */
  readonly executor: PgExecutor;
  readonly schema?: string;
}

/**
 * Reads the schema's applied migrations and lists the pending ones. Creates nothing: a schema
 * (or a whole database) nobody migrated answers every version pending.
 */
export async function migrationStatus(options: MigrationStatusOptions): Promise<MigrationStatus> {
  const schema = options.schema ?? DEFAULT_SCHEMA;
  const s = quoteSchema(schema);
  try {
    const { rows: found } = await options.executor.query(MIGRATIONS_TABLE_EXISTS, [
      `${s}.migrations`,
    ]);
    const present = (found[0] as { present: boolean } | undefined)?.present === true;
    const rows = present ? (await options.executor.query(appliedMigrationsSql(s), [])).rows : [];
    const applied = rows.map((row) => {
      const { version, applied_at } = row as { version: number; applied_at: number };
      return { version: Number(version), appliedAt: Math.round(Number(applied_at)) };
    });
    const done = new Set(applied.map((migration) => migration.version));
    return {
      schema,
      version: Math.max(0, ...done),
      latest: LATEST_VERSION,
      applied,
      pending: MIGRATIONS.filter((migration) => !done.has(migration.version)).map(
        (migration) => migration.version,
      ),
    };
  } catch (error) {
    if (isBerthError(error)) throw error;
    throw pgUnavailable({ operation: 'read migration status', cause: error, schema });
  }
}
