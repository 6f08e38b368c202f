import {
  BerthError,
  DEFAULT_MAX_PAYLOAD_BYTES,
  type EnqueueRequest,
  isBerthError,
  parseDuration,
  screenEnqueue,
} from '@berth/core';
import { UsageError } from './errors.js';
import { clip } from './escape.js';

/**
 * The fields one NDJSON line may hold: what `berth enqueue NAME [JSON]` takes, under the
 * contract's names. `delay` is a duration as `--delay` takes it; `delayMs` and `runAt` (epoch ms
 * or an ISO 8601 instant) say the same in other forms, at most one of the three per line.
 */
export const LINE_FIELDS = [
  'name',
  'payload',
  'queue',
  'delay',
  'delayMs',
  'runAt',
  'priority',
  'idempotencyKey',
  'maxAttempts',
] as const;

const KNOWN = new Set<string>(LINE_FIELDS);
/** How much of a bad line an error echoes (escaped). */
const ECHO_COLUMNS = 60;

const lineUsage = (line: number, reason: string): UsageError =>
  new UsageError(`line ${line}: ${reason}`);

/** The instant a line asks for, from `delay`, `delayMs` or `runAt`; undefined for now. */
function runAtOf(line: number, fields: Record<string, unknown>, now: number): unknown {
  const given = (['delay', 'delayMs', 'runAt'] as const).filter((key) => fields[key] !== undefined);
  if (given.length > 1) {
    throw lineUsage(line, `give one of delay, delayMs and runAt, not ${given.join(' and ')}`);
  }
  const { delay, delayMs, runAt } = fields;
  if (delay !== undefined) {
    const ms = typeof delay === 'string' ? parseDuration(delay) : undefined;
    if (ms === undefined) throw lineUsage(line, 'delay is not a duration, e.g. "10s", "5m", "7d"');
    return now + ms;
  }
  if (delayMs !== undefined) {
    if (typeof delayMs !== 'number' || !Number.isSafeInteger(delayMs) || delayMs < 0) {
      throw lineUsage(line, 'delayMs is not an integer of milliseconds, 0 or more');
    }
    return now + delayMs;
  }
  if (typeof runAt === 'string') {
    const at = Date.parse(runAt);
    if (Number.isNaN(at))
      throw lineUsage(line, 'runAt is neither epoch ms nor an ISO 8601 instant');
    return at;
  }
  return runAt;
}

/**
 * One line as the request `enqueueMany` takes, screened as core screens every enqueue. The
 * line's shape (JSON, an object, known fields, one time form) is the command line's:
 * USAGE_INVALID, exit 2. What the contract refuses (a bad name, priority, payload) is
 * JOB_INVALID, exit 1, its detail starting with the line number. Echoed text is escaped.
 */
export function jobOfLine(
  text: string,
  line: number,
  now: number,
  tenantId: string | undefined,
): EnqueueRequest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw lineUsage(line, `not JSON: ${clip(text, ECHO_COLUMNS)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw lineUsage(line, `not a JSON object: ${clip(text, ECHO_COLUMNS)}`);
  }
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!KNOWN.has(key)) {
      throw lineUsage(
        line,
        `"${clip(key, ECHO_COLUMNS)}" is not a field a line takes (${LINE_FIELDS.join(', ')})`,
      );
    }
  }
  const request = Object.fromEntries(
    Object.entries({
      name: fields.name,
      payload: fields.payload ?? null,
      queue: fields.queue,
      runAt: runAtOf(line, fields, now),
      priority: fields.priority,
      idempotencyKey: fields.idempotencyKey,
      maxAttempts: fields.maxAttempts,
      tenantId,
    }).filter(([, member]) => member !== undefined),
  ) as unknown as EnqueueRequest;
  try {
    screenEnqueue(request, DEFAULT_MAX_PAYLOAD_BYTES);
  } catch (error) {
    if (!isBerthError(error, 'JOB_INVALID')) throw error;
    throw new BerthError({
      code: 'JOB_INVALID',
      detail: `line ${line}: ${error.detail}`,
      fix: `correct ${error.meta.field} on line ${line} and run the command again`,
      meta: error.meta,
    });
  }
  return request;
}
