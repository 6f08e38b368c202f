/** A schedule as every answer carries it: int8 arrive as strings, the payload as its JSON text. */
const SCHEDULE_COLUMNS =
  'name, tenant_id, cron, timezone, job, queue, payload::text AS payload, priority, ' +
  'max_attempts, paused, next_at, revision, created_at, updated_at';

/**
 * Stored schedules (migration 15). Each call is ONE statement; `put` and `remove` are
 * conditioned on the revision, and under READ COMMITTED a conditional UPDATE or DELETE waits for
 * a racing change of the row and re-checks its condition on the row that change left, as two
 * creates' INSERT … ON CONFLICT DO NOTHING wait for each other: of racers, exactly one lands.
 * No tenant is '' in `tenant_id` and in every parameter naming one. `*_order` parameters are the
 * UTF-16BE bytes of a name or tenant (see migration 15): list and due sort by them.
 */
export function schedulesSql(s: string) {
  return {
    /**
     * Revision 0: lands only when nothing is stored under (tenant, name). $1 tenant_id, $2 name,
     * $3 tenant_order, $4 name_order, $5 cron, $6 timezone, $7 job, $8 queue, $9 payload (JSON
     * text), $10 priority, $11 max_attempts (each optional one NULL when absent), $12 paused,
     * $13 next_at, $14 now.
     */
    create: `
      INSERT INTO ${s}.schedules (tenant_id, name, tenant_order, name_order, cron, timezone, job,
        queue, payload, priority, max_attempts, paused, next_at, revision, created_at, updated_at)
      VALUES ($1::text, $2::text, $3::bytea, $4::bytea, $5::text, $6::text, $7::text, $8::text,
        $9::json, $10::int, $11::int, $12::boolean, $13::bigint, 1, $14::bigint, $14::bigint)
      ON CONFLICT (tenant_id, name) DO NOTHING
      RETURNING ${SCHEDULE_COLUMNS}`,

    /**
     * Lands only at the stored revision $13; keeps the key (so its order bytes) and created_at.
     * $1 tenant_id, $2 name, $3 cron, $4 timezone, $5 job, $6 queue, $7 payload (JSON text),
     * $8 priority, $9 max_attempts, $10 paused, $11 next_at, $12 now.
     */
    update: `
      UPDATE ${s}.schedules SET
        cron = $3::text,
        timezone = $4::text,
        job = $5::text,
        queue = $6::text,
        payload = $7::json,
        priority = $8::int,
        max_attempts = $9::int,
        paused = $10::boolean,
        next_at = $11::bigint,
        revision = revision + 1,
        updated_at = $12::bigint
      WHERE tenant_id = $1::text AND name = $2::text AND revision = $13::bigint
      RETURNING ${SCHEDULE_COLUMNS}`,

    /** $1 tenant_id, $2 name. */
    get: `
      SELECT ${SCHEDULE_COLUMNS} FROM ${s}.schedules
      WHERE tenant_id = $1::text AND name = $2::text`,

    /** Lands only at the stored revision. $1 tenant_id, $2 name, $3 revision. */
    remove: `
      DELETE FROM ${s}.schedules
      WHERE tenant_id = $1::text AND name = $2::text AND revision = $3::bigint
      RETURNING true AS removed`,

    /**
     * Every tenant's, after ($1 name_order, $2 tenant_order) in list order (two empty byte
     * strings: from the first, as names are never empty), through schedules_listed_idx.
     * $3 limit.
     */
    list: `
      SELECT ${SCHEDULE_COLUMNS} FROM ${s}.schedules
      WHERE (name_order, tenant_order) > ($1::bytea, $2::bytea)
      ORDER BY name_order, tenant_order
      LIMIT $3::int`,

    /**
     * One tenant's ($1 tenant_id), after ($2 name_order, $3 tenant_order) as `list`, through
     * schedules_tenant_idx: the range starts at the name, and the row comparison drops that name
     * itself when the position's tenant is not before this one. $4 limit.
     */
    listTenant: `
      SELECT ${SCHEDULE_COLUMNS} FROM ${s}.schedules
      WHERE tenant_id = $1::text AND name_order >= $2::bytea
        AND (name_order, tenant_order) > ($2::bytea, $3::bytea)
      ORDER BY name_order
      LIMIT $4::int`,

    /**
     * Unpaused, next_at at or before $1, by next_at then list order, through the partial
     * schedules_due_idx: reads the due rows and stops at the limit. $2 limit.
     */
    due: `
      SELECT ${SCHEDULE_COLUMNS} FROM ${s}.schedules
      WHERE NOT paused AND next_at <= $1::bigint
      ORDER BY next_at, name_order, tenant_order
      LIMIT $2::int`,
  };
}
