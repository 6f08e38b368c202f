/** What `check()` reads: one cheap statement. */
export function checkSql(s: string) {
  return {
    /** The latest applied migration; fails 42P01/3F000 when nothing was ever migrated. */
    version: `SELECT coalesce(max(version), 0)::int AS version FROM ${s}.migrations`,
  };
}
