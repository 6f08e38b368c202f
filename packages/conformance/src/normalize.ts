import { isBerthError, isUuid } from '@berth/core';

/**
 * A driver-independent rendering of an answer: what the golden transcripts and the differential
 * runner compare. Two drivers that answer alike render alike, although their ids, run ids,
 * cursors and clocks' start differ.
 */
export type Normalized =
  | null
  | boolean
  | number
  | string
  | readonly Normalized[]
  | { readonly [key: string]: Normalized };

/** An answer of `undefined` (get of a missing id, steps.put). */
export const NONE = '(none)';
/** A key present with the value `undefined`: the contract says an unset field is ABSENT. */
export const UNDEFINED_FIELD = '(undefined)';
/** What every list cursor renders as: cursors are opaque, only their presence is compared. */
export const CURSOR = 'cursor';
/** What `meta.driver` renders as when it names the driver that answered. */
export const THIS_DRIVER = '(driver)';

/** JobRecord's contract fields (and ClaimedJob's `resumed`), in the order a transcript shows. */
const JOB_FIELDS = [
  'id',
  'runId',
  'name',
  'queue',
  'payload',
  'state',
  'priority',
  'attempts',
  'maxAttempts',
  'runAt',
  'createdAt',
  'updatedAt',
  'finishedAt',
  'claimedBy',
  'claim',
  'visibleAt',
  'lastError',
  'result',
  'progress',
  'idempotencyKey',
  'concurrencyKey',
  'tenantId',
  'traceparent',
  'enqueuedBy',
  'parentId',
  'waitFor',
  'resumed',
] as const;

const STEP_FIELDS = [
  'runId',
  'name',
  'status',
  'output',
  'error',
  'attempts',
  'wakeAt',
  'eventName',
  'eventId',
  'startedAt',
  'updatedAt',
] as const;

const EVENT_FIELDS = ['id', 'name', 'payload', 'publishedAt', 'expiresAt'] as const;

/** BackfillRun's fields; its `cursor` is app content. */
const BACKFILL_FIELDS = [
  'runId',
  'name',
  'tenantId',
  'status',
  'cursor',
  'passes',
  'rowsDone',
  'jobId',
  'startedAt',
  'updatedAt',
  'finishedAt',
  'lastError',
] as const;

/** ScheduleRecord's fields; its `payload` is app content. */
const SCHEDULE_FIELDS = [
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
  'revision',
  'createdAt',
  'updatedAt',
] as const;

/** Keys whose number is an instant on the driver's clock: rendered as an offset from t0. */
const INSTANT_KEYS = new Set([
  'runAt',
  'createdAt',
  'updatedAt',
  'finishedAt',
  'visibleAt',
  'startedAt',
  'wakeAt',
  'publishedAt',
  'expiresAt',
  'claimedAt',
  'endedAt',
  'pausedAt',
  'nextAt',
]);

/** App content: compared as given, never relabelled. */
const CONTENT_KEYS = new Set(['payload', 'result', 'output', 'progress']);

type Kind = 'job' | 'run' | 'event';

/**
 * Replaces uuids by labels in order of first appearance (`job1`, `run1`, `event1`...). One per
 * driver per scenario or sequence, so two drivers that answer alike produce the same labels.
 */
export class Labeler {
  private readonly labels = new Map<string, string>();
  private readonly counts: Record<Kind, number> = { job: 0, run: 0, event: 0 };

  label(uuid: string, kind: Kind): string {
    const key = uuid.toLowerCase();
    const known = this.labels.get(key);
    if (known !== undefined) return known;
    this.counts[kind] += 1;
    const made = `${kind}${this.counts[kind]}`;
    this.labels.set(key, made);
    return made;
  }
}

/** What rendering needs to know about the driver that answered. */
export interface NormalizeContext {
  readonly labels: Labeler;
  /** The instant offsets are measured from. */
  readonly t0: number;
  /** The answering driver's name, so `meta.driver` can be compared across drivers. */
  readonly driverName: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const has = (value: Record<string, unknown>, ...keys: string[]) =>
  keys.every((key) => Object.hasOwn(value, key));

const offset = (at: number, t0: number): string => (at >= t0 ? `+${at - t0}` : `-${t0 - at}`);

function kindOf(key: string | undefined, shape: 'event' | undefined): Kind {
  if (key === 'runId') return 'run';
  if (key === 'eventId' || (key === 'id' && shape === 'event')) return 'event';
  return 'job';
}

function field(
  key: string,
  value: unknown,
  context: NormalizeContext,
  shape?: 'event',
): Normalized {
  if (value === undefined) return UNDEFINED_FIELD;
  if (CONTENT_KEYS.has(key)) return plain(value);
  if (INSTANT_KEYS.has(key) && typeof value === 'number') return offset(value, context.t0);
  if (typeof value === 'string' && isUuid(value)) {
    return context.labels.label(value, kindOf(key, shape));
  }
  return render(value, context, key);
}

function pick(
  record: Record<string, unknown>,
  fields: readonly string[],
  context: NormalizeContext,
  shape?: 'event',
): Normalized {
  const out: Record<string, Normalized> = {};
  for (const key of fields) {
    if (Object.hasOwn(record, key)) out[key] = field(key, record[key], context, shape);
  }
  return out;
}

/** JSON content as given; anything not JSON is shown by its type, so it cannot compare equal. */
function plain(value: unknown): Normalized {
  if (value === undefined) return UNDEFINED_FIELD;
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return value;
  if (Array.isArray(value)) return value.map(plain);
  if (isObject(value)) {
    const out: Record<string, Normalized> = {};
    for (const [key, entry] of Object.entries(value)) out[key] = plain(entry);
    return out;
  }
  return `(${typeof value})`;
}

function renderError(error: unknown, context: NormalizeContext): Normalized {
  if (!isBerthError(error)) {
    return {
      error: { raw: error instanceof Error ? `${error.name}: ${error.message}` : String(error) },
    };
  }
  const meta: Record<string, Normalized> = {};
  for (const [key, value] of Object.entries(error.meta)) {
    meta[key] =
      key === 'driver' && value === context.driverName ? THIS_DRIVER : field(key, value, context);
  }
  return { error: { code: error.code, meta } };
}

function render(value: unknown, context: NormalizeContext, key?: string): Normalized {
  if (value === undefined) return NONE;
  if (value instanceof Error) return renderError(value, context);
  if (typeof value === 'string') {
    return isUuid(value) ? context.labels.label(value, kindOf(key, undefined)) : value;
  }
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return value;
  if (Array.isArray(value)) return value.map((item) => render(item, context, key));
  if (!isObject(value)) return `(${typeof value})`;
  if (has(value, 'id', 'runId', 'state', 'claim')) return pick(value, JOB_FIELDS, context);
  if (has(value, 'runId', 'status', 'passes', 'rowsDone')) {
    const run = pick(value, BACKFILL_FIELDS, context) as Record<string, Normalized>;
    return Object.hasOwn(value, 'cursor') ? { ...run, cursor: plain(value.cursor) } : run;
  }
  if (has(value, 'runId', 'name', 'status', 'startedAt')) return pick(value, STEP_FIELDS, context);
  if (has(value, 'id', 'publishedAt', 'expiresAt')) {
    return pick(value, EVENT_FIELDS, context, 'event');
  }
  if (has(value, 'cron', 'nextAt', 'revision')) return pick(value, SCHEDULE_FIELDS, context);
  if (Array.isArray(value.jobs) || Array.isArray(value.schedules)) {
    const rows = Array.isArray(value.jobs) ? 'jobs' : 'schedules';
    const page: Record<string, Normalized> = { [rows]: render(value[rows], context) };
    for (const side of ['next', 'prev'] as const) {
      if (!Object.hasOwn(value, side)) continue;
      const cursor = value[side];
      page[side] = typeof cursor === 'string' && cursor.length > 0 ? CURSOR : plain(cursor);
    }
    return page;
  }
  const out: Record<string, Normalized> = {};
  for (const [entryKey, entry] of Object.entries(value)) {
    out[entryKey] = field(entryKey, entry, context);
  }
  return out;
}

/**
 * Renders one answer (or the error a call threw): ids and run ids become labels, instants become
 * offsets from t0 (`+1500`), errors become `{ error: { code, meta } }`, records keep only the
 * contract's fields in a stable order, cursors become `cursor`, `undefined` becomes `(none)`.
 */
export function normalizeAnswer(value: unknown, context: NormalizeContext): Normalized {
  return render(value, context);
}
