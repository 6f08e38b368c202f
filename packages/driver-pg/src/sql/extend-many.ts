/** Batched lease renewal: ONE statement over the batch, each item fenced on its own. */
export function extendManySql(s: string) {
  return {
    /**
     * Renews every row whose fence holds (running under that worker and claim). Each item is one
     * probe of the unique `id` index (LIMIT 1 keeps it a lateral lookup the planner cannot turn
     * into a join scanning jobs), so the plan is linear in the batch, fresh or ANALYZEd. A row
     * has one holder, so only one fence per id can hit and the row is updated once; the update
     * matches it through an id array and compares the state with the hit's `running` column (a
     * join condition, so the statistics' count of running rows cannot drive the plan; the probe
     * does the same, else a partial index over running rows looks cheaper to it). Answers
     * the ordinal of every item whose fence landed, a repeated fence each time.
     * $1 ids, $2 workers, $3 claims; $4 now, $5 visibility ms.
     */
    extendMany: `
      WITH items AS (
        SELECT t.*, 'running'::text AS running
        FROM unnest($1::uuid[], $2::text[], $3::bigint[])
          WITH ORDINALITY AS t(id, worker, claim, ord)
      ), hits AS MATERIALIZED (
        SELECT DISTINCT ON (i.id) i.id, i.worker, i.claim, i.running
        FROM items i
        CROSS JOIN LATERAL (
          SELECT 1 FROM ${s}.jobs j
          WHERE j.id = i.id AND j.state = i.running AND j.claimed_by = i.worker
            AND j.claim = i.claim
          LIMIT 1
        ) f
        ORDER BY i.id
      ), moved AS (
        UPDATE ${s}.jobs j SET visible_at = $4::bigint + $5::bigint, lapsed = false,
          updated_at = $4::bigint
        FROM hits h
        WHERE j.id = ANY(ARRAY(SELECT id FROM hits)) AND j.id = h.id AND j.state = h.running
          AND j.claimed_by = h.worker AND j.claim = h.claim
        RETURNING j.id, j.claimed_by, j.claim
      )
      SELECT i.ord FROM items i
      JOIN moved m ON m.id = i.id AND m.claimed_by = i.worker AND m.claim = i.claim`,
  };
}
