import { adminPool } from './pg-factory.js';

/**
 * Enqueues and claims as a process of the version before migration 16 does, for tests that act
 * on a schema an upgrade has not reached yet: today's driver writes `parent_id` and claims
 * through claim_jobs_v2, which such a schema lacks. Every schema since migration 4 takes these.
 */
export async function enqueueAsBefore(
  schema: string,
  job: { readonly name: string; readonly queue?: string; readonly maxAttempts?: number },
  now: number,
): Promise<{ readonly id: string; readonly runId: string }> {
  const { rows } = await (await adminPool()).query<{ id: string; run_id: string }>(
    `INSERT INTO "${schema}".jobs (id, run_id, name, queue, payload, state, priority, attempts,
       max_attempts, run_at, created_at, updated_at, claim)
     VALUES (gen_random_uuid(), gen_random_uuid(), $1, $2, 'null', 'ready', 0, 0, $3, $4, $4, $4, 0)
     RETURNING id, run_id`,
    [job.name, job.queue ?? 'default', job.maxAttempts ?? 3, now],
  );
  const [row] = rows;
  if (row === undefined) throw new Error('the insert answered no row');
  return { id: row.id, runId: row.run_id };
}

/** The fence of the one job a claim (claim_jobs, as the previous version calls it) takes. */
export async function claimAsBefore(
  schema: string,
  claim: { readonly queue: string; readonly workerId: string },
  now: number,
): Promise<{ readonly jobId: string; readonly workerId: string; readonly claim: number }> {
  const { rows } = await (await adminPool()).query<{ id: string; claim: string }>(
    `SELECT id, claim FROM "${schema}".claim_jobs($1::text[], $2::bigint, 1, $3::text, 60000,
       '{}'::text[], 'null'::json, NULL::text[])`,
    [[claim.queue], now, claim.workerId],
  );
  const [row] = rows;
  if (row === undefined) throw new Error(`expected a claim from ${claim.queue}`);
  return { jobId: row.id, workerId: claim.workerId, claim: Number(row.claim) };
}
