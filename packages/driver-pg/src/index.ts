export type { PgBackfillTransactionOptions } from './backfill-transaction.js';
export { pgBackfillTransaction } from './backfill-transaction.js';
export type { PgConnectionOptions, PgExecutor, PgResult } from './executor.js';
export type { MigrateOptions, MigrateResult } from './migrate.js';
export { migrate } from './migrate.js';
export type {
  AppliedMigration,
  MigrationStatus,
  MigrationStatusOptions,
} from './migration-status.js';
export { migrationStatus } from './migration-status.js';
export type { PgOutbox, PgOutboxOptions } from './outbox/pg-outbox.js';
export { createPgOutbox } from './outbox/pg-outbox.js';
export type { PgDriver, PgDriverOptions } from './pg-driver.js';
export { createPgDriver } from './pg-driver.js';
export type { PgPoolOptions } from './pool-options.js';
export { LATEST_VERSION } from './sql/migrations/index.js';
export { DEFAULT_SCHEMA } from './sql/schema.js';
