import type { Driver, Fence, JobLogLevel, LogLine, LogLineInput } from '@berth/core';

/** `count` lines `<label> 1`, `<label> 2`… at `at`, cycling through the levels. */
export function logLines(count: number, label: string, at: number): LogLineInput[] {
  const levels: readonly JobLogLevel[] = ['info', 'debug', 'warn', 'error'];
  return Array.from({ length: count }, (_, index) => ({
    at: at + index,
    level: levels[index % levels.length] ?? 'info',
    message: `${label} ${index + 1}`,
  }));
}

/** Appends `count` lines in batches of at most 100, as one attempt would (`from` grows). */
export async function appendAll(
  driver: Driver,
  fence: Fence,
  lines: readonly LogLineInput[],
  from = 0,
): Promise<void> {
  for (let start = 0; start < lines.length; start += 100) {
    const batch = lines.slice(start, start + 100);
    if (!(await driver.logs.append(fence, { from: from + start, lines: batch }))) {
      throw new Error(`append of lines ${start}.. was refused`);
    }
  }
}

/** Every line of the job and its dropped count, walking pages of `limit`. */
export async function readAll(
  driver: Driver,
  jobId: string,
  limit = 500,
): Promise<{ lines: LogLine[]; dropped: number; pages: number }> {
  const lines: LogLine[] = [];
  let after = 0;
  let pages = 0;
  for (;;) {
    const page = await driver.logs.list(jobId, { after, limit });
    pages += 1;
    lines.push(...page.lines);
    if (page.next === undefined) return { lines, dropped: page.dropped, pages };
    after = page.next;
  }
}

/** The stored lines `input` becomes: seq from `firstSeq`, every line of `attempt`. */
export function stored(input: readonly LogLineInput[], attempt: number, firstSeq = 1): LogLine[] {
  return input.map((line, index) => ({ ...line, seq: firstSeq + index, attempt }));
}
