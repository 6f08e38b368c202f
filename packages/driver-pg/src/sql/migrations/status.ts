/**
 * Reading which migrations a schema holds, without creating anything: `migrationStatus` must
 * answer for a schema nobody migrated yet, so it first asks whether the table exists.
 */

/** $1 the quoted `"schema".migrations` name: true when that table exists. */
export const MIGRATIONS_TABLE_EXISTS = 'SELECT to_regclass($1) IS NOT NULL AS present';

/** Every applied version with its instant in epoch ms, oldest version first. */
export const appliedMigrationsSql = (s: string): string => `
  SELECT version, (extract(epoch FROM applied_at) * 1000)::float8 AS applied_at
  FROM ${s}.migrations
  ORDER BY version`;
