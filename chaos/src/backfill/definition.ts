import { type BackfillDefinition, defineBackfill } from '@berth/core';
import { pgBackfillTransaction } from '@berth/driver-pg';
import type pg from 'pg';
import { PASS_WORK, PROCESS_PASS } from './rows-sql.ts';

export interface ChaosBackfillOptions {
  readonly pool: pg.Pool;
  readonly schema: string;
  readonly batch: number;
  readonly rowsPerSecond: number;
  /** Work each pass does after marking its items, ms: holds the transaction open, so kills land mid-pass. */
  readonly workMs: number;
}

/** The chaos run's backfill: marks the next `batch` items, in the cursor commit's transaction. */
export function chaosBackfill(options: ChaosBackfillOptions): BackfillDefinition {
  const processPass = PROCESS_PASS(options.schema);
  return defineBackfill({
    name: 'chaos.items',
    batch: options.batch,
    rateLimit: { rows: options.rowsPerSecond, intervalMs: 1_000 },
    // Kills land mid-pass: a pass rolled back is no failure of the run.
    retry: { maxAttempts: 1_000, backoff: { initialMs: 50, factor: 1, maxMs: 50, jitter: 0 } },
    transaction: pgBackfillTransaction({ pool: options.pool, schema: options.schema }),
    pass: async ({ cursor, limit, tx }) => {
      const after = typeof cursor === 'number' ? cursor : 0;
      const { rows } = await tx.query<{ rows: number; last: string | null }>(processPass, [
        after,
        limit,
      ]);
      await tx.query(PASS_WORK, [options.workMs / 1_000]);
      const taken = rows[0]?.rows ?? 0;
      const last = rows[0]?.last;
      return { rows: taken, next: taken < limit || last == null ? null : Number(last) };
    },
  });
}
