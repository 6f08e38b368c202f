import type { ByIdOptions, Driver, LogLine } from '@berth/core';
import { MAX_LOG_PAGE } from '@berth/core';
import { escapeLine } from './escape.js';
import type { Colors, Output } from './output.js';

/** A job's log as the CLI shows it: every kept line, and how many were dropped past the cap. */
export interface JobLogs {
  readonly lines: readonly LogLine[];
  readonly dropped: number;
}

/**
 * Every line of job `id` after `after`, page by page (a job keeps at most MAX_JOB_LOG_LINES, so
 * this is a couple of calls). JOB_NOT_FOUND as `driver.logs.list` answers it.
 */
export async function readJobLogs(
  driver: Driver,
  id: string,
  byId: ByIdOptions,
  after = 0,
): Promise<JobLogs> {
  const lines: LogLine[] = [];
  let from = after;
  for (;;) {
    const page = await driver.logs.list(id, { ...byId, after: from, limit: MAX_LOG_PAGE });
    lines.push(...page.lines);
    if (page.next === undefined) return { lines, dropped: page.dropped };
    from = page.next;
  }
}

const paintLevel = (level: LogLine['level'], color: Colors): string => {
  const text = level.padEnd(5);
  if (level === 'error') return color.red(text);
  if (level === 'warn') return color.yellow(text);
  if (level === 'debug') return color.dim(text);
  return text;
};

/** One line: seq, attempt, ISO time, level, and the message with every control escaped. */
export const logLineText = (line: LogLine, color: Colors): string =>
  [
    color.dim(`#${line.seq}`),
    color.dim(`attempt ${line.attempt}`),
    new Date(line.at).toISOString(),
    paintLevel(line.level, color),
    escapeLine(line.message),
  ].join('  ');

/** The `logs` section of `berth jobs show`: a head, then one line per log line. */
export function printJobLogs(out: Output, logs: JobLogs): void {
  out.line();
  if (logs.lines.length === 0 && logs.dropped === 0) {
    out.line(out.color.dim('no logs'));
    return;
  }
  const dropped = logs.dropped === 0 ? '' : `, ${logs.dropped} dropped past the cap`;
  out.line(out.color.bold(`logs (${logs.lines.length}${dropped})`));
  for (const line of logs.lines) out.line(logLineText(line, out.color));
}
