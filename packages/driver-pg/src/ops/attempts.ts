import type { AttemptBackend, AttemptOutcome, AttemptRecord, JobError } from '@berth/core/driver';
import { int } from '../rows.js';
import type { OpsContext } from './context.js';

interface AttemptRow {
  readonly seq: number | null;
  readonly attempt: number;
  readonly claim: string;
  readonly worker: string;
  readonly claimed_at: string;
  readonly ended_at: string;
  readonly outcome: AttemptOutcome;
  readonly error: JobError | null;
}

function toAttemptRecord(row: AttemptRow & { seq: number }): AttemptRecord {
  const record = {
    seq: row.seq,
    attempt: row.attempt,
    claim: int(row.claim),
    workerId: row.worker,
    claimedAt: int(row.claimed_at),
    endedAt: int(row.ended_at),
    outcome: row.outcome,
  };
  return row.error === null ? record : { ...record, error: row.error };
}

/** `driver.attempts`: one statement per read. */
export function attemptStore({ db, sql }: OpsContext): AttemptBackend {
  return {
    async list(jobId, options) {
      const rows = await db.rows<AttemptRow>('list attempts', sql.attempts.list, [
        jobId,
        options.tenantId ?? null,
      ]);
      if (rows.length === 0) return undefined;
      const records = rows.flatMap((row) =>
        row.seq === null ? [] : [toAttemptRecord({ ...row, seq: row.seq })],
      );
      const last = records.at(-1);
      return { records, dropped: last === undefined ? 0 : last.seq - records.length };
    },
  };
}
