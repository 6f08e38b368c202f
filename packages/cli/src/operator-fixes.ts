import { BerthError, type BerthErrorInput, isBerthError } from '@berth/core';

/**
 * Driver and core fixes are written for an app (`createPgDriver({ schema })`, "pass next/prev");
 * an operator at the CLI sets those through flags. This rewrites a fix that names a driver option
 * into the flag that sets it, keeping code, detail, meta and cause as they were.
 */

/** Driver options the CLI sets from a flag, and a command line showing the flag. */
const OPTION_FLAGS: Readonly<Record<string, { flag: string; example: string }>> = {
  schema: { flag: '--schema', example: 'berth jobs ls --schema berth_jobs' },
  prefix: { flag: '--prefix', example: 'berth jobs ls --prefix berth_jobs' },
  connectionString: {
    flag: '--url',
    example: 'berth jobs ls --url postgres://postgres@127.0.0.1:5432/app',
  },
  url: { flag: '--url', example: 'berth jobs ls --url redis://127.0.0.1:6379' },
  servers: { flag: '--url', example: 'berth jobs ls --url nats://127.0.0.1:4222' },
  cursorSecret: {
    flag: '--cursor-secret',
    example: 'berth jobs ls --cursor-secret "$BERTH_CURSOR_SECRET"',
  },
};

/** pg's refusals of the role, database or privilege: the URL (its user, password or path) is what to change. */
const PG_ACCESS_FIXES: Readonly<Record<string, string>> = {
  '28P01':
    'the server refused the user or password in --url: correct them (postgres://USER:PASSWORD@host:5432/db), and check pg_hba.conf admits that user; running again will not help',
  '28000':
    'the server refused the user in --url (no such role, or pg_hba.conf has no entry for it): correct the user in --url (postgres://USER@host:5432/db); running again will not help',
  '3D000':
    'the database in --url does not exist on that server: correct its path (postgres://user@host:5432/DATABASE) or create the database; running again will not help',
  '42501':
    'the user in --url lacks a privilege on the --schema: grant it (GRANT USAGE, CREATE ON SCHEMA ... TO that user, and on its tables), or pass --url with the schema owner; running again will not help',
};

/** Redis replies that refused the caller, by the reply's first word. */
const REDIS_ACCESS_FIXES: readonly (readonly [RegExp, string])[] = [
  [
    /^(WRONGPASS|NOAUTH)\b/,
    'the server refused the username or password in --url: correct them (redis://USER:PASSWORD@host:6379); running again will not help',
  ],
  [
    /^NOPERM\b/,
    'the user in --url lacks an ACL permission Berth needs: grant it (ACL SETUSER) or pass --url with a user that has it; running again will not help',
  ],
];

/** NATS client errors that refused the caller, by error class. */
const NATS_ACCESS_FIXES: Readonly<Record<string, string>> = {
  AuthorizationError:
    'the server refused the user and password (or token) in --url: correct them (nats://USER:PASSWORD@host:4222); running again will not help',
  UserAuthenticationExpiredError:
    'the credentials in --url have expired: renew them and pass the new ones in --url; running again will not help',
  PermissionViolationError:
    "the user in --url lacks permissions Berth needs (the prefix's subjects, the JetStream API): grant them, or pass --url with a user that has them; running again will not help",
};

const CURSOR_FIX =
  'pass --after (or --before) exactly as berth jobs ls printed it under a page, with the same filters; a cursor the app or dashboard printed also needs the --cursor-secret it signs with';

/** Core's backfill fixes name `meta.active`, `tenantId` and an app's call: none is the operator's. */
function backfillFix(error: BerthError): string | undefined {
  if (isBerthError(error, 'BACKFILL_RUNNING')) {
    const [first = '<runId>'] = error.meta.active;
    return `wait for ${error.meta.active.join(', ')} to end, or pause or cancel it first (berth backfills cancel ${first}); or start with a higher --concurrency to run several at once`;
  }
  if (isBerthError(error, 'BACKFILL_NOT_FOUND')) {
    return "check the run id (berth backfills ls lists the runs the ledger keeps) and --tenant: another tenant's run answers as missing";
  }
  if (isBerthError(error, 'BACKFILL_NOT_ACTIVE')) {
    return `start a new run; to go on from where this one stopped, start it at its cursor: berth backfills show ${error.meta.runId} prints it, then berth backfills start <name> --cursor '<cursor>'`;
  }
  return undefined;
}

/** Core's SCHEDULE_NOT_FOUND names the app's `tenantId`; the operator sets it with --tenant. */
function scheduleFix(error: BerthError): string | undefined {
  if (isBerthError(error, 'SCHEDULE_NOT_FOUND')) {
    return "check the name (berth schedules ls lists every tenant's stored schedules) and --tenant: a tenant's schedule is found only with its --tenant, and another tenant's answers as missing; schedules given to createScheduler in code are not stored, and the schedules commands do not see them";
  }
  return undefined;
}

function rewrite(error: BerthError): string | undefined {
  const own = backfillFix(error) ?? scheduleFix(error);
  if (own !== undefined) return own;
  if (isBerthError(error, 'CONFIG_INVALID')) {
    const option = error.meta.option;
    const named = OPTION_FLAGS[option];
    if (named === undefined || !error.fix.startsWith(`${option} `)) return undefined;
    // A driver's fix reads "<option> <what it must be>; e.g. <an app's call>".
    const body = error.fix.slice(option.length + 1);
    const example = body.lastIndexOf('; e.g. ');
    const allowed = example < 0 ? body : body.slice(0, example);
    return `${named.flag} ${allowed}; e.g. ${named.example}`;
  }
  if (isBerthError(error, 'JOB_PAGE_INVALID') && error.meta.reason === 'cursor') return CURSOR_FIX;
  if (isBerthError(error, 'DRIVER_UNAVAILABLE') && error.meta.driver === 'pg') {
    return PG_ACCESS_FIXES[error.meta.errorCode ?? ''];
  }
  if (isBerthError(error, 'DRIVER_UNAVAILABLE') && error.meta.driver === 'nats') {
    return error.cause instanceof Error ? NATS_ACCESS_FIXES[error.cause.name] : undefined;
  }
  if (isBerthError(error, 'DRIVER_UNAVAILABLE') && error.meta.driver === 'redis') {
    const reply = error.cause instanceof Error ? error.cause.message : '';
    return REDIS_ACCESS_FIXES.find(([pattern]) => pattern.test(reply))?.[1];
  }
  return undefined;
}

/** Errors a command already wrote in the operator's terms: {@link forOperator} keeps their fix. */
const WRITTEN_FOR_OPERATOR = new WeakSet<BerthError>();

/**
 * `error` with `fix`, written by the command that knows what the operator typed (a cursor of
 * `schedules ls`, not of `jobs ls`); code, detail, meta and cause kept as they were.
 */
export function withOperatorFix(error: BerthError, fix: string): BerthError {
  const written = withFix(error, fix);
  WRITTEN_FOR_OPERATOR.add(written);
  return written;
}

function withFix(error: BerthError, fix: string): BerthError {
  // The same code and meta it came with: the input type cannot say so for a union of codes.
  const input = {
    code: error.code,
    detail: error.detail,
    fix,
    meta: error.meta,
    ...(error.cause === undefined ? {} : { cause: error.cause }),
  } as BerthErrorInput;
  return new BerthError(input);
}

/** `error` with its fix in the CLI's terms; the same error when its fix already fits. */
export function forOperator(error: BerthError): BerthError {
  if (WRITTEN_FOR_OPERATOR.has(error)) return error;
  const fix = rewrite(error);
  return fix === undefined ? error : withFix(error, fix);
}

/** The `schedules upsert` flag (or argument) that sets each field core's JOB_INVALID names. */
const SCHEDULE_FLAGS: Readonly<Record<string, string>> = {
  name: 'the <name> argument',
  tenantId: '--tenant',
  cron: '--cron',
  timezone: '--timezone',
  job: '--job',
  payload: '--payload',
  queue: '--queue',
  priority: '--priority',
  maxAttempts: '--max-attempts',
  catchUp: '--catch-up',
};

const CRON_FIX =
  "correct --cron: 5 fields (minute hour day-of-month month day-of-week), or 6 with seconds first, quoted for the shell (--cron '0 3 * * *' is 03:00 every day), read in the IANA zone --timezone names (e.g. --timezone Europe/Berlin; default UTC)";

/**
 * What `schedules upsert` shows for core's JOB_INVALID: the flag that sets the field, not the
 * field of an app's `upsert({ ... })` call. Anything else is thrown as it came.
 */
export function forScheduleUpsert(error: unknown): unknown {
  if (!isBerthError(error, 'JOB_INVALID')) return error;
  const { field } = error.meta;
  if (field === 'cron' || field === 'timezone') return withOperatorFix(error, CRON_FIX);
  const flag = SCHEDULE_FLAGS[field];
  if (flag === undefined) return error;
  return withOperatorFix(
    error,
    `correct ${flag} as the message says, then run the same berth schedules upsert again (it changes the stored schedule of the name, or stores a new one)`,
  );
}

/** What `schedules ls` shows for a cursor no page printed: a cursor of its own pages. */
export function forScheduleList(error: unknown): unknown {
  if (!isBerthError(error, 'JOB_PAGE_INVALID') || error.meta.reason !== 'cursor') return error;
  return withOperatorFix(
    error,
    'pass --after exactly as berth schedules ls printed it under a page, with the same --tenant (or none); a cursor of berth jobs ls pages jobs, not schedules',
  );
}

/** The `lifecycle` flag that sets each field of a read core's JOB_INVALID names. */
const LIFECYCLE_FLAGS: Readonly<Record<string, string>> = {
  jobId: '--job (a job id as berth jobs ls prints it)',
  queue: '--queue',
  name: '--name',
  tenantId: '--tenant',
};

/**
 * What `berth lifecycle` shows for a position the store never made (core's fix says "pass
 * next/prev") or a filter core refused: the flag to correct. Anything else is thrown as it came.
 */
export function forLifecycleRead(error: unknown): unknown {
  if (isBerthError(error, 'JOB_PAGE_INVALID') && error.meta.reason === 'cursor') {
    return withOperatorFix(
      error,
      'pass --from start, --from end, or a position berth lifecycle printed (a POSITION, or the --from under a page) from this same queue (--url and --schema or --prefix): positions of one store mean nothing to another',
    );
  }
  if (!isBerthError(error, 'JOB_INVALID')) return error;
  const flag = LIFECYCLE_FLAGS[error.meta.field];
  return flag === undefined
    ? error
    : withOperatorFix(error, `correct ${flag} as the message says and run it again`);
}
