import type { JobLogLevel } from '../../contract/logs.js';

/**
 * `ctx.log`: lines kept with the job (see `client.logs(id)`, `berth jobs show`, the dashboard).
 * `ctx.log(...values)` writes at `info`; `ctx.log.debug/info/warn/error(...values)` at that
 * level. Values are joined by spaces: a string as it is, an Error as its stack (or name and
 * message), anything else as its JSON (`String(value)` when it has none). Never blocks and never
 * throws: lines are batched by the worker and written before the job settles, fenced by the
 * attempt's claim (a lost lease drops them). Each line keeps at most MAX_LOG_LINE_BYTES, a job
 * at most MAX_JOB_LOG_LINES (the earliest; later ones are counted as dropped).
 */
export interface JobLog {
  (...values: readonly unknown[]): void;
  debug(...values: readonly unknown[]): void;
  info(...values: readonly unknown[]): void;
  warn(...values: readonly unknown[]): void;
  error(...values: readonly unknown[]): void;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return value.stack ?? `${value.name}: ${value.message}`;
  if (typeof value === 'bigint') return `${value}n`;
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch {
    // A cycle or a throwing toJSON: fall through to String.
  }
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** One line's message from `ctx.log`'s values. */
export function formatLogValues(values: readonly unknown[]): string {
  if (values.length === 1) return describe(values[0]);
  return values.map(describe).join(' ');
}

/** Makes the `ctx.log` function over `write`, which takes one formatted line. */
export function makeJobLog(write: (level: JobLogLevel, message: string) => void): JobLog {
  const at =
    (level: JobLogLevel) =>
    (...values: readonly unknown[]): void =>
      write(level, formatLogValues(values));
  const log = at('info') as JobLog;
  log.debug = at('debug');
  log.info = log;
  log.warn = at('warn');
  log.error = at('error');
  return log;
}
