import {
  DEFAULT_LOG_PAGE,
  JOB_LOG_LEVELS,
  type JobLogLevel,
  type LogAppend,
  type LogLineInput,
  type LogListOptions,
  MAX_JOB_LOG_LINES,
  MAX_LOG_APPEND,
  MAX_LOG_LINE_BYTES,
  MAX_LOG_PAGE,
  type ScreenedLogList,
} from '../contract/logs.js';
import { jobInvalid, jobPageInvalid } from '../errors/refusals.js';
import {
  screenArray,
  screenInstant,
  screenInteger,
  screening,
  screenObject,
  screenOptionalName,
} from './values.js';

const encoder = new TextEncoder();
const ELLIPSIS = '…';
const ELLIPSIS_BYTES = 3;

/**
 * A message every backend stores alike: lone surrogates and NUL become U+FFFD (pg text holds no
 * NUL), and over MAX_LOG_LINE_BYTES of UTF-8 it is cut at a character boundary and ends with `…`.
 */
export function normaliseLogMessage(text: string): string {
  let message = text.isWellFormed() ? text : text.toWellFormed();
  if (message.includes('\u0000')) message = message.replaceAll('\u0000', '\uFFFD');
  // Cheap test first: a string of n UTF-16 units holds at most 3n bytes.
  if (message.length * 3 <= MAX_LOG_LINE_BYTES) return message;
  const bytes = encoder.encode(message);
  if (bytes.length <= MAX_LOG_LINE_BYTES) return message;
  let end = MAX_LOG_LINE_BYTES - ELLIPSIS_BYTES;
  // Back off continuation bytes (10xxxxxx) so the cut falls between characters.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return new TextDecoder().decode(bytes.subarray(0, end)) + ELLIPSIS;
}

const isLevel = (value: unknown): value is JobLogLevel =>
  typeof value === 'string' && (JOB_LOG_LEVELS as readonly string[]).includes(value);

function screenLine(value: unknown, index: number): LogLineInput {
  const input = screenObject(`lines[${index}]`, value);
  if (!isLevel(input.level)) {
    throw jobInvalid('level', `lines[${index}].level must be one of ${JOB_LOG_LEVELS.join(', ')}`);
  }
  if (typeof input.message !== 'string') {
    throw jobInvalid('message', `lines[${index}].message must be a string`);
  }
  return {
    at: screenInstant('at', input.at),
    level: input.level,
    message: normaliseLogMessage(input.message),
  };
}

/** An append's batch: `from` an offset, 1..MAX_LOG_APPEND lines, each line normalised. */
export const screenLogAppend = screening('log batch', (batch: LogAppend): LogAppend => {
  const input = screenObject('log batch', batch);
  const lines = screenArray('lines', input.lines, MAX_LOG_APPEND);
  if (lines.length === 0) throw jobInvalid('lines', 'must hold at least one line');
  return {
    from: screenInteger('from', input.from, 0, Number.MAX_SAFE_INTEGER),
    lines: lines.map(screenLine),
  };
});

/** `list`'s options, filled in; a limit outside 1..MAX_LOG_PAGE is JOB_PAGE_INVALID. */
export const screenLogList = screening(
  'log list options',
  (options: LogListOptions = {}): ScreenedLogList => {
    const input = screenObject('log list options', options);
    const limit = input.limit ?? DEFAULT_LOG_PAGE;
    if (
      typeof limit !== 'number' ||
      !Number.isInteger(limit) ||
      limit < 1 ||
      limit > MAX_LOG_PAGE
    ) {
      throw jobPageInvalid('limit', limit);
    }
    return {
      tenantId: screenOptionalName('tenantId', input.tenantId),
      after:
        input.after === undefined ? 0 : screenInteger('after', input.after, 0, MAX_JOB_LOG_LINES),
      limit,
    };
  },
);
