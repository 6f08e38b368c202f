import { MAX_NAME_LENGTH } from '../contract/limits.js';
import {
  MAX_CRON_LENGTH,
  MAX_SCHEDULE_PAGE,
  type ScheduleBackend,
  type ScheduleListOptions,
  type ScheduleListRequest,
  type SchedulePosition,
  type ScheduleRecord,
  type ScheduleStore,
  type ScheduleWrite,
} from '../contract/schedules.js';
import { jobInvalid, jobPageInvalid } from '../errors/refusals.js';
import { cronProblem } from '../internal/cron.js';
import { PRIORITY_MAX, PRIORITY_MIN } from './enqueue.js';
import {
  screenInstant,
  screenInteger,
  screening,
  screenJson,
  screenName,
  screenObject,
  screenOptionalName,
  screenTenantOption,
} from './values.js';

const DEFAULT_PAGE = 20;
const CURSOR_PREFIX = 's1.';
/** Revisions count stored changes: a safe integer. */
const MAX_REVISION = Number.MAX_SAFE_INTEGER;

const WRITE_FIELDS = new Set([
  'name',
  'tenantId',
  'cron',
  'timezone',
  'job',
  'queue',
  'payload',
  'priority',
  'maxAttempts',
  'paused',
  'nextAt',
]);

function screenCron(cron: unknown, timezone: string | undefined): string {
  if (typeof cron !== 'string' || cron.trim().length === 0) {
    throw jobInvalid('cron', 'must be a non-empty cron expression');
  }
  if (cron.length > MAX_CRON_LENGTH) {
    throw jobInvalid('cron', `is longer than ${MAX_CRON_LENGTH} characters`);
  }
  const problem = cronProblem(cron, timezone);
  if (problem !== undefined) throw jobInvalid(problem.field, problem.reason);
  return cron;
}

function screenWriteOf(value: unknown, maxPayloadBytes: number): ScheduleWrite {
  const input = screenObject('schedule', value);
  for (const key of Object.keys(input)) {
    if (!WRITE_FIELDS.has(key)) throw jobInvalid(key, 'is not a schedule field');
  }
  const tenantId = screenOptionalName('tenantId', input.tenantId);
  const timezone = screenOptionalName('timezone', input.timezone);
  const queue = screenOptionalName('queue', input.queue);
  if (typeof input.paused !== 'boolean') throw jobInvalid('paused', 'must be a boolean');
  return {
    name: screenName('name', input.name),
    ...(tenantId === undefined ? {} : { tenantId }),
    cron: screenCron(input.cron, timezone),
    ...(timezone === undefined ? {} : { timezone }),
    job: screenName('job', input.job),
    ...(queue === undefined ? {} : { queue }),
    payload:
      input.payload === undefined
        ? null
        : screenJson('payload', input.payload, maxPayloadBytes).value,
    ...(input.priority === undefined
      ? {}
      : { priority: screenInteger('priority', input.priority, PRIORITY_MIN, PRIORITY_MAX) }),
    ...(input.maxAttempts === undefined
      ? {}
      : { maxAttempts: screenInteger('maxAttempts', input.maxAttempts, 1, 1_000_000) }),
    paused: input.paused,
    nextAt: screenInstant('nextAt', input.nextAt),
  };
}

const screenRevision = (value: unknown): number =>
  screenInteger('revision', value, 0, MAX_REVISION);

/** A list cursor: the last schedule of a page, and the tenant filter the page was made under. */
function encodeCursor(position: SchedulePosition, tenantFilter: string | undefined): string {
  const body = JSON.stringify([position.name, position.tenantId ?? null, tenantFilter ?? null]);
  return `${CURSOR_PREFIX}${Buffer.from(body, 'utf8').toString('base64url')}`;
}

function decodeCursor(cursor: unknown, tenantFilter: string | undefined): SchedulePosition {
  if (
    typeof cursor !== 'string' ||
    !cursor.startsWith(CURSOR_PREFIX) ||
    cursor.length > 4 * MAX_NAME_LENGTH * 3
  ) {
    throw jobPageInvalid('cursor', cursor);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor.slice(CURSOR_PREFIX.length), 'base64url').toString());
  } catch {
    throw jobPageInvalid('cursor', cursor);
  }
  const valid = (part: unknown) =>
    part === null ||
    (typeof part === 'string' && part.length > 0 && part.length <= MAX_NAME_LENGTH);
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    typeof parsed[0] !== 'string' ||
    parsed[0].length === 0 ||
    !parsed.every(valid) ||
    parsed[2] !== (tenantFilter ?? null)
  ) {
    throw jobPageInvalid('cursor', cursor);
  }
  const [name, tenantId] = parsed as [string, string | null, string | null];
  return { name, tenantId: tenantId ?? undefined };
}

const screenList = screening('options', (options: unknown): ScheduleListRequest => {
  const input = screenObject('options', options ?? {});
  const tenantId = screenOptionalName('tenantId', input.tenantId);
  return {
    tenantId,
    after: input.after === undefined ? undefined : decodeCursor(input.after, tenantId),
    limit:
      input.limit === undefined
        ? DEFAULT_PAGE
        : screenInteger('limit', input.limit, 1, MAX_SCHEDULE_PAGE),
  };
});

type Run = <T>(operation: string, call: () => Promise<T>) => Promise<T>;

/** `driver.schedules`: screened once here, then the backend's calls under the driver's guard. */
export function screenedSchedules(
  backend: ScheduleBackend,
  maxPayloadBytes: number,
  run: Run,
): ScheduleStore {
  const screenWrite = screening(
    'schedule',
    (schedule: unknown, revision: unknown) =>
      [screenWriteOf(schedule, maxPayloadBytes), screenRevision(revision)] as const,
  );
  const screenByName = screening(
    'name',
    (name: unknown, options: unknown) =>
      [screenName('name', name), screenTenantOption(options)] as const,
  );
  return {
    put: (schedule, revision) =>
      run('store a schedule', () => backend.put(...screenWrite(schedule, revision))),
    get: (name, options) =>
      run('read a schedule', () => backend.get(...screenByName(name, options))),
    remove: (name, revision, options) =>
      run('remove a schedule', () => {
        const [screened, tenantId] = screenByName(name, options);
        return backend.remove(screened, tenantId, screenRevision(revision));
      }),
    list: (options?: ScheduleListOptions) =>
      run('list schedules', async () => {
        const request = screenList(options);
        const schedules = await backend.list(request);
        const last: ScheduleRecord | undefined = schedules[request.limit - 1];
        return last === undefined
          ? { schedules }
          : { schedules, next: encodeCursor(last, request.tenantId) };
      }),
    due: (upTo, limit) =>
      run('read due schedules', () =>
        backend.due({
          upTo: screenInstant('upTo', upTo),
          limit: screenInteger('limit', limit, 1, MAX_SCHEDULE_PAGE),
        }),
      ),
  };
}
