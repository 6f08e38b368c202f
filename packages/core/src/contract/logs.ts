import type { ByIdOptions, Fence } from './records.js';

/** How loud a job's log line is. */
export type JobLogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Every level, quietest first. */
export const JOB_LOG_LEVELS: readonly JobLogLevel[] = ['debug', 'info', 'warn', 'error'];

/**
 * The most lines one job keeps, over all its attempts. The EARLIEST lines are kept: once a job
 * holds this many, every later line is dropped and counted in its `dropped`, so an append never
 * deletes and never costs more than its own lines.
 */
export const MAX_JOB_LOG_LINES = 1_000;
/**
 * The most bytes (UTF-8) one line's message keeps. Core cuts a longer message to this many,
 * ending it with `…`, at a character boundary; it never refuses one for its length.
 */
export const MAX_LOG_LINE_BYTES = 2_048;
/** The most lines one `append` carries (the worker flushes in batches of at most this many). */
export const MAX_LOG_APPEND = 100;
/** `list`'s page size when none is given. */
export const DEFAULT_LOG_PAGE = 100;
/** The largest `list` page (over it: JOB_PAGE_INVALID). */
export const MAX_LOG_PAGE = 500;

/** One line as the attempt wrote it. */
export interface LogLineInput {
  /** When the handler logged it (epoch ms, the worker's clock): kept as given. */
  readonly at: number;
  readonly level: JobLogLevel;
  /** At most MAX_LOG_LINE_BYTES of UTF-8 once screened; no NUL, no lone surrogate. */
  readonly message: string;
}

/**
 * One attempt's batch of lines. `from` is how many lines this attempt (this fence) offered in
 * earlier batches: it makes a retried append whose answer was lost store nothing twice.
 */
export interface LogAppend {
  readonly from: number;
  readonly lines: readonly LogLineInput[];
}

/** A stored line. */
export interface LogLine {
  /** 1, 2, 3… per job, in append order, over every attempt: the page cursor. */
  readonly seq: number;
  /** The job's `attempts` when the line was appended (1 on the first attempt). */
  readonly attempt: number;
  readonly at: number;
  readonly level: JobLogLevel;
  readonly message: string;
}

export interface LogListOptions extends ByIdOptions {
  /** Lines with `seq` above this one (default 0: from the first). */
  readonly after?: number;
  /** Default DEFAULT_LOG_PAGE, at most MAX_LOG_PAGE. */
  readonly limit?: number;
}

/** A screened `list`: every field filled in. */
export interface ScreenedLogList {
  readonly tenantId: string | undefined;
  readonly after: number;
  readonly limit: number;
}

export interface LogPage {
  /** Up to `limit` lines with `seq > after`, in seq order. */
  readonly lines: readonly LogLine[];
  /** The `after` of the next page, present only when more lines follow this one. */
  readonly next?: number;
  /** Lines the job's attempts wrote past MAX_JOB_LOG_LINES, which were not kept. */
  readonly dropped: number;
}

/**
 * A job's log: the lines its attempts wrote through `ctx.log`, kept with the job and removed
 * with it (purge, and any call that deletes the job). Kit group: `logs`.
 *
 * The same shape is the app-facing store (`driver.logs`, inputs screened by core) and what a
 * backend implements (`DriverBackend.logs`, inputs already screened: it trusts them).
 */
export interface LogStore {
  /**
   * Appends the batch in ONE atomic change fenced by the claim, like `ack`: it lands only while
   * the job is `running` with this `claimedBy` and `claim` (a lapsed lease not yet re-claimed
   * still lands); a stale fence (re-claimed, settled, cancelled, never claimed, unknown id)
   * writes nothing and answers false. Nothing of the job record moves (not even `updatedAt`).
   *
   * The job keeps `next`, how many lines the holder of `claim` has offered (0 for a claim that
   * offered none yet). Of the batch, the first `max(0, next - from)` lines were stored by an
   * earlier append (a retry of a lost answer) and are skipped; then `next = max(next, from +
   * lines.length)`. Each remaining line, in order, is stored with the next `seq` and
   * `attempt = attempts` of the row while the job holds fewer than MAX_JOB_LOG_LINES lines, and
   * is counted in `dropped` otherwise. Answers true when the fence held, whatever was kept.
   * Work is bounded by the batch (at most MAX_LOG_APPEND lines), never by the job's log.
   */
  append(fence: Fence, batch: LogAppend): Promise<boolean>;
  /**
   * A page of the job's lines with `seq > after`, in seq order, at most `limit`, plus `next`
   * when more follow and the job's `dropped` count. Any state, settled jobs too. A job nobody
   * queued (or one removed), or with `tenantId` a job of another tenant (or of none), answers
   * JOB_NOT_FOUND, as every by-id call does. A job that logged nothing answers no lines.
   */
  list(jobId: string, options?: LogListOptions): Promise<LogPage>;
}

/** What a backend implements: `list` gets its options screened and filled in. */
export interface LogBackend {
  append(fence: Fence, batch: LogAppend): Promise<boolean>;
  /** Up to `limit + 1` lines with `seq > after` (core cuts the page and makes `next`). */
  list(
    jobId: string,
    options: ScreenedLogList,
  ): Promise<{
    readonly lines: readonly LogLine[];
    readonly dropped: number;
  }>;
}
