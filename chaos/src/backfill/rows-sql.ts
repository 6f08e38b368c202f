// The test's own ledger of a backfill chaos run: one row per item of the collection, with how
// many times a committed pass processed it. A pass increments `processed` in the same
// transaction that advances the run's cursor, so any value but 1 is a pass lost or run twice.

export const CREATE_ITEMS = (schema: string) =>
  `CREATE TABLE "${schema}".items (id bigint PRIMARY KEY, processed int NOT NULL DEFAULT 0)`;

/** $1: how many items (ids 1..$1). */
export const FILL_ITEMS = (schema: string) =>
  `INSERT INTO "${schema}".items (id) SELECT generate_series(1, $1::bigint)`;

/** One pass: the next $2 ids after $1, each marked once more; answers the count and the last id. */
export const PROCESS_PASS = (schema: string) => `
  WITH taken AS (
    SELECT id FROM "${schema}".items WHERE id > $1 ORDER BY id LIMIT $2
  ), marked AS (
    UPDATE "${schema}".items AS item SET processed = item.processed + 1
    FROM taken WHERE item.id = taken.id
    RETURNING item.id
  )
  SELECT count(*)::int AS rows, max(id)::bigint AS last FROM marked
`;

/** How the collection stands: rows processed 0 times, more than once, and in all. */
export const TALLY = (schema: string) => `
  SELECT count(*) FILTER (WHERE processed = 0)::int AS missing,
         count(*) FILTER (WHERE processed > 1)::int AS twice,
         count(*)::int AS total
  FROM "${schema}".items
`;

/** $1: seconds of work a pass does after marking its items, inside its transaction. */
export const PASS_WORK = 'SELECT pg_sleep($1)';
