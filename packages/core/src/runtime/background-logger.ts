/** Structured fields a log line carries. */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * What the scheduler and the retention sweep log through. Any logger with these three methods
 * fits (the worker's logger, pino, console).
 */
export interface BackgroundLogger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const quiet = (): void => {};

/** The logger used when none is given: says nothing. */
export const silentLogger: BackgroundLogger = Object.freeze({
  info: quiet,
  warn: quiet,
  error: quiet,
});
