import type { Fence } from '@berth/core/driver';
import type { OpsContext } from './context.js';

/** Many lease renewals in ONE statement; answers per item, in input order. */
export function extendManyOps({ db, sql, clock }: OpsContext) {
  return {
    async extendMany(items: readonly Fence[], visibilityTimeoutMs: number): Promise<boolean[]> {
      const rows = await db.rows<{ ord: string }>('extend a batch', sql.extendMany.extendMany, [
        items.map((fence) => fence.jobId),
        items.map((fence) => fence.workerId),
        items.map((fence) => fence.claim),
        clock.now(),
        visibilityTimeoutMs,
      ]);
      const landed = new Set(rows.map((row) => Number(row.ord)));
      return items.map((_, index) => landed.has(index + 1));
    },
  };
}
