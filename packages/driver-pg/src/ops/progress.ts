import type { Fence, Json } from '@berth/core/driver';
import type { OpsContext } from './context.js';

/** The fenced progress write: ONE statement. */
export function progressOps({ db, sql, clock }: OpsContext) {
  return {
    async progress(fence: Fence, value: Json): Promise<boolean> {
      const rows = await db.rows('report progress', sql.progress.progress, [
        fence.jobId,
        fence.workerId,
        fence.claim,
        clock.now(),
        JSON.stringify(value),
      ]);
      return rows.length > 0;
    },
  };
}
