/** Batched lease renewal: ONE statement over the batch, each item fenced on its own. */
export function extendManySql(s: string) {
  return {
    /**
     * Renews every item whose fence holds: the row is running under that worker and claim. The
     * distinct fences join `jobs` by its unique `id` index (a probe per item, never a scan), and a
     * row matches at most one of them (a row has one holder), so it is updated once however
     * often its fence repeats. Answers the ordinal of every item whose fence landed, duplicates
     * included. $1 ids, $2 workers, $3 claims; $4 now, $5 visibility ms.
     */
    extendMany: `
      WITH items AS (
        SELECT * FROM unnest($1::uuid[], $2::text[], $3::bigint[])
          WITH ORDINALITY AS t(id, worker, claim, ord)
      ), moved AS (
        UPDATE ${s}.jobs j SET visible_at = $4::bigint + $5::bigint, updated_at = $4::bigint
        FROM (SELECT DISTINCT id, worker, claim FROM items) f
        WHERE j.id = ANY($1::uuid[]) AND j.id = f.id AND j.state = 'running'
          AND j.claimed_by = f.worker AND j.claim = f.claim
        RETURNING j.id, j.claimed_by, j.claim
      )
      SELECT i.ord FROM items i
      JOIN moved m ON m.id = i.id AND m.claimed_by = i.worker AND m.claim = i.claim`,
  };
}
