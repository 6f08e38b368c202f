import { type ByIdOptions, type JobRecord, jobNotDeletable, jobNotFound } from '@berth/core/driver';
import { type JobRow, toJobRecord } from '../rows.js';
import type { OpsContext } from './context.js';

type DeleteRow = JobRow & { readonly deleted: boolean };

/** delete: one statement (sql/delete.ts); the answer is the row as it stood. */
export function deleteOps({ db, sql, clock }: OpsContext) {
  return {
    async delete(id: string, options: ByIdOptions): Promise<JobRecord> {
      const now = clock.now();
      const [row] = await db.rows<DeleteRow>('delete a job', sql.delete.delete, [
        id,
        options.tenantId ?? null,
      ]);
      if (row === undefined) throw jobNotFound(id);
      const record = toJobRecord(row, now);
      if (!row.deleted) throw jobNotDeletable(id, record.state);
      return record;
    },
  };
}
