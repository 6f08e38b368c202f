import {
  type Fence,
  jobNotFound,
  type LogAppend,
  type LogLine,
  MAX_JOB_LOG_LINES,
  type ScreenedLogList,
} from '@berth/core/driver';
import { fenced } from './settle.js';
import { findRow, type Store } from './store.js';

/** One job's log: its kept lines, the count past the cap, and the current claim's offset. */
export interface JobLog {
  readonly lines: LogLine[];
  dropped: number;
  /** The claim `next` belongs to. */
  claim: number;
  /** Lines the holder of `claim` has offered (what a retried batch skips). */
  next: number;
}

/** The fenced append (see `LogStore.append`): skips what a retry repeats, keeps the earliest. */
export function appendLogs(store: Store, fence: Fence, batch: LogAppend): boolean {
  const row = fenced(store, fence);
  if (row === undefined) return false;
  let log = store.logs.get(row.id);
  if (log === undefined) {
    log = { lines: [], dropped: 0, claim: row.claim, next: 0 };
    store.logs.set(row.id, log);
  }
  if (log.claim !== row.claim) {
    log.claim = row.claim;
    log.next = 0;
  }
  const skip = Math.max(0, log.next - batch.from);
  log.next = Math.max(log.next, batch.from + batch.lines.length);
  for (const line of batch.lines.slice(skip)) {
    if (log.lines.length >= MAX_JOB_LOG_LINES) {
      log.dropped += 1;
      continue;
    }
    const { at, level, message } = line;
    log.lines.push({ seq: log.lines.length + 1, attempt: row.attempts, at, level, message });
  }
  return true;
}

/** Up to `limit + 1` lines after `after`: seq is the position + 1, so a slice, never a scan. */
export function listLogs(
  store: Store,
  jobId: string,
  options: ScreenedLogList,
): { lines: readonly LogLine[]; dropped: number } {
  if (findRow(store, jobId, options.tenantId) === undefined) throw jobNotFound(jobId);
  const log = store.logs.get(jobId);
  if (log === undefined) return { lines: [], dropped: 0 };
  const lines = log.lines
    .slice(options.after, options.after + options.limit + 1)
    .map((line) => ({ ...line }));
  return { lines, dropped: log.dropped };
}
