import type { LogFields } from '../background-logger.js';

/**
 * What the worker logs through. Any logger with these four methods fits (pino, winston, a
 * console wrapper); it is also a BackgroundLogger, so the scheduler and retention can share it.
 */
export interface RuntimeLogger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const RANK: Readonly<Record<LogLevel, number>> = {
  debug: 0,
  info: 1,
  warn: 2,
  error: 3,
  silent: 4,
};

/**
 * A logger writing to the console at `level` and above (default `warn`): the worker's default,
 * quiet while all goes well.
 */
export function createConsoleLogger(options: { level?: LogLevel } = {}): RuntimeLogger {
  const floor = RANK[options.level ?? 'warn'];
  const line =
    (level: Exclude<LogLevel, 'silent'>) =>
    (message: string, fields?: LogFields): void => {
      if (RANK[level] < floor) return;
      const text = `berth ${level}: ${message}`;
      if (fields === undefined) console[level](text);
      else console[level](text, fields);
    };
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}

/** The same logger with `fields` added to every line (a line's own fields win). */
export function withFields(logger: RuntimeLogger, fields: LogFields): RuntimeLogger {
  const merge = (more?: LogFields): LogFields =>
    more === undefined ? fields : { ...fields, ...more };
  return {
    debug: (message, more) => logger.debug(message, merge(more)),
    info: (message, more) => logger.info(message, merge(more)),
    warn: (message, more) => logger.warn(message, merge(more)),
    error: (message, more) => logger.error(message, merge(more)),
  };
}

/** A thrown value as log fields: message and code, never the whole object. */
export function errorFields(error: unknown): LogFields {
  if (!(error instanceof Error)) return { error: String(error) };
  const code = (error as { code?: unknown }).code;
  return { error: error.message, ...(typeof code === 'string' ? { code } : {}) };
}
