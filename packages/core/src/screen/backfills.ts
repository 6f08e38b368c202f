import type {
  BackfillBackend,
  BackfillByIdOptions,
  BackfillCommit,
  BackfillLedger,
  BackfillListOptions,
  BackfillListRequest,
  BackfillStart,
  BackfillStatus,
  BackfillTransition,
} from '../contract/backfills.js';
import {
  BACKFILL_STATUSES,
  MAX_BACKFILL_CURSOR_BYTES,
  MAX_BACKFILL_ERROR_LENGTH,
  MAX_BACKFILL_LIST_LIMIT,
} from '../contract/backfills.js';
import type { Json } from '../contract/records.js';
import { jobInvalid } from '../errors/refusals.js';
import {
  screenInteger,
  screening,
  screenJson,
  screenName,
  screenObject,
  screenOptionalName,
  screenTenantOption,
  screenUuid,
  storable,
} from './values.js';

const DEFAULT_LIST_LIMIT = 20;
/** A count a run may add up to: past it a double loses integers. */
const MAX_COUNT = Number.MAX_SAFE_INTEGER;

function screenStatus(field: string, value: unknown): BackfillStatus {
  if (!BACKFILL_STATUSES.includes(value as BackfillStatus)) {
    throw jobInvalid(field, `must be one of ${BACKFILL_STATUSES.join(', ')}`);
  }
  return value as BackfillStatus;
}

const screenCursor = (field: string, value: unknown): Json | null =>
  value === undefined || value === null
    ? null
    : screenJson(field, value, MAX_BACKFILL_CURSOR_BYTES).value;

const screenRunId = (value: unknown): string => screenUuid('runId', value);

const screenStart = screening('start request', (request: unknown): BackfillStart => {
  const input = screenObject('start request', request);
  return {
    runId: screenRunId(input.runId),
    name: screenName('name', input.name),
    tenantId: screenOptionalName('tenantId', input.tenantId),
    cursor: screenCursor('cursor', input.cursor),
    jobId: screenUuid('jobId', input.jobId),
    maxActive:
      input.maxActive === undefined ? 1 : screenInteger('maxActive', input.maxActive, 1, 1_000),
  };
});

const screenTransition = screening(
  'transition',
  (runId: unknown, change: unknown): BackfillTransition => {
    const input = screenObject('transition', change);
    const from = input.from;
    if (!Array.isArray(from) || from.length === 0) {
      throw jobInvalid('from', 'must be a non-empty array of statuses');
    }
    const error = input.error;
    if (error !== undefined && typeof error !== 'string')
      throw jobInvalid('error', 'must be a string');
    return {
      runId: screenRunId(runId),
      tenantId: screenOptionalName('tenantId', input.tenantId),
      from: [...new Set(from.map((status) => screenStatus('from', status)))],
      to: screenStatus('to', input.to),
      ...(input.jobId === undefined ? {} : { jobId: screenUuid('jobId', input.jobId) }),
      ...(error === undefined
        ? {}
        : { error: storable(error.slice(0, MAX_BACKFILL_ERROR_LENGTH)) }),
    };
  },
);

const screenCommit = screening('commit', (runId: unknown, pass: unknown): BackfillCommit => {
  const input = screenObject('commit', pass);
  return {
    runId: screenRunId(runId),
    jobId: screenUuid('jobId', input.jobId),
    passes: screenInteger('passes', input.passes, 0, MAX_COUNT),
    next: screenCursor('next', input.next),
    rows: screenInteger('rows', input.rows, 0, MAX_COUNT),
  };
});

const screenList = screening('list options', (options: unknown): BackfillListRequest => {
  const input = screenObject('options', options ?? {});
  return {
    name: screenOptionalName('name', input.name),
    status: input.status === undefined ? undefined : screenStatus('status', input.status),
    tenantId: screenOptionalName('tenantId', input.tenantId),
    limit:
      input.limit === undefined
        ? DEFAULT_LIST_LIMIT
        : screenInteger('limit', input.limit, 1, MAX_BACKFILL_LIST_LIMIT),
  };
});

const screenGet = screening(
  'options',
  (runId: unknown, options: BackfillByIdOptions | undefined): [string, string | undefined] => [
    screenRunId(runId),
    screenTenantOption(options),
  ],
);

type Run = <T>(operation: string, call: () => Promise<T>) => Promise<T>;

/** `driver.backfills`: screened once here, then the backend's calls under the driver's guard. */
export function screenedBackfills(backend: BackfillBackend, run: Run): BackfillLedger {
  return {
    start: (request) => run('start a backfill', () => backend.start(screenStart(request))),
    get: (runId, options) =>
      run('read a backfill', () => backend.get(...screenGet(runId, options))),
    transition: (runId, change) =>
      run('change a backfill', () => backend.transition(screenTransition(runId, change))),
    commit: (runId, pass) =>
      run('commit a backfill pass', () => backend.commit(screenCommit(runId, pass))),
    list: (options?: BackfillListOptions) =>
      run('list backfills', () => backend.list(screenList(options))),
  };
}
