import {
  type JobLogLevel,
  jobNotFound,
  type LogBackend,
  MAX_JOB_LOG_LINES,
} from '@berth/core/driver';
import { int } from '../rows.js';
import type { OpsContext } from './context.js';

interface LogRow {
  readonly seq: number;
  readonly attempt: number;
  readonly at: string | number;
  readonly level: string;
  readonly message: string;
  readonly dropped: string | number;
}

/** Job logs: each call ONE statement. */
export function logStore({ db, sql }: OpsContext): LogBackend {
  return {
    async append(fence, batch) {
      const [row] = await db.rows<{ landed: boolean }>('append job logs', sql.logs.append, [
        fence.jobId,
        fence.workerId,
        fence.claim,
        batch.from,
        batch.lines.map((line) => line.at),
        batch.lines.map((line) => line.level),
        batch.lines.map((line) => line.message),
        MAX_JOB_LOG_LINES,
      ]);
      return row?.landed === true;
    },
    async list(jobId, options) {
      const rows = await db.rows<LogRow>('list job logs', sql.logs.list, [
        jobId,
        options.tenantId ?? null,
        options.after,
        options.limit + 1,
      ]);
      const head = rows.find((row) => row.seq === 0);
      if (head === undefined) throw jobNotFound(jobId);
      const lines = rows
        .filter((row) => row.seq !== 0)
        .sort((a, b) => a.seq - b.seq)
        .map((row) => ({
          seq: row.seq,
          attempt: row.attempt,
          at: int(row.at),
          level: row.level as JobLogLevel,
          message: row.message,
        }));
      return { lines, dropped: int(head.dropped) };
    },
  };
}
