import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  configInvalid,
  DEFAULT_STALE_READY_AFTER_MS,
  type Driver,
  type OutboxAdmin,
  type ScheduleDefinition,
  type SchedulerOptions,
} from '@berth/core';

/**
 * Decides whether a request may see the dashboard. It may set headers on `response` (a
 * `WWW-Authenticate` challenge) or answer the request itself; answering false refuses it (401).
 */
export type DashboardAuth = (
  request: IncomingMessage,
  response: ServerResponse,
) => boolean | Promise<boolean>;

/** The one tenant a request may see and act on. */
export type DashboardTenant = (request: IncomingMessage) => string | Promise<string>;

/** What `createScheduler` takes: its schedule list, or its whole options (for `leaseName`). */
export type DashboardSchedules =
  | readonly ScheduleDefinition[]
  | Pick<SchedulerOptions, 'schedules' | 'leaseName'>;

export interface DashboardOptions {
  readonly driver: Driver;
  /** Where the dashboard is mounted, e.g. `/admin/queue`. Default `''` (the server's root). */
  readonly basePath?: string;
  /**
   * Who may see it. Without `auth`, only requests from this machine are accepted: a loopback
   * peer, a loopback `Host`, and no proxy forwarding headers.
   */
  readonly auth?: DashboardAuth;
  /** Hides every action in the page and refuses every action request (403). */
  readonly readOnly?: boolean;
  /** Scopes every read and action to the tenant this answers for the request. */
  readonly tenant?: DashboardTenant;
  /** The app's schedules (as given to `createScheduler`), for the schedules page. */
  readonly schedules?: DashboardSchedules;
  /**
   * The transactional outbox (`createPgOutbox` from `@berth/driver-pg`), for the outbox page:
   * what waits for a relay, and the rows the queue refused (retry, discard).
   */
  readonly outbox?: OutboxAdmin;
  /**
   * Signs the CSRF tokens. Default: random per process. Give every process serving the same
   * dashboard behind one address the same secret.
   */
  readonly csrfSecret?: string;
  /** The page title. Default `Berth`. */
  readonly title?: string;
  /** How often open pages refresh, ms. Default 5 000. */
  readonly refreshMs?: number;
  /** How often the throughput sampler reads `stats()`, ms. Default 10 000. */
  readonly sampleMs?: number;
  /**
   * The overview flags job names whose oldest ready job waited longer than this, ms (a name no
   * worker runs, or workers falling behind). Default 300 000 (5 minutes).
   */
  readonly staleReadyAfterMs?: number;
  /** Most recent dead jobs one dead-letter view reads and groups. Default 1 000, at most 5 000. */
  readonly deadLetterScan?: number;
  /**
   * Most recent jobs the id search reads to find one by a part of its id (a whole id is read
   * directly). Default 5 000, at most 5 000: ten list calls of 500.
   */
  readonly idSearchScan?: number;
}

export interface ResolvedOptions {
  readonly driver: Driver;
  readonly basePath: string;
  readonly auth: DashboardAuth | undefined;
  readonly readOnly: boolean;
  readonly tenant: DashboardTenant | undefined;
  readonly schedules: readonly ScheduleDefinition[] | undefined;
  readonly schedulerLease: string;
  readonly outbox: OutboxAdmin | undefined;
  readonly csrfSecret: Buffer;
  readonly title: string;
  readonly refreshMs: number;
  readonly sampleMs: number;
  readonly staleReadyAfterMs: number;
  readonly deadLetterScan: number;
  readonly idSearchScan: number;
}

export const MAX_DEAD_LETTER_SCAN = 5_000;
/** The longest `staleReadyAfterMs` accepted: a week. */
export const MAX_STALE_READY_AFTER_MS = 7 * 24 * 3_600_000;
export const MAX_ID_SEARCH_SCAN = 5_000;
const DEFAULT_LEASE = 'berth.scheduler';
// Injected into the page and the cookie's Path: nothing that needs escaping.
const BASE_PATH = /^(\/[A-Za-z0-9._~-]+)*$/;

function integer(option: string, value: number | undefined, fallback: number, max: number) {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw configInvalid({
      option,
      reason: `must be an integer from 1 to ${max}`,
      example: `createDashboard({ driver, ${option}: ${Math.min(max, 1_000)} })`,
    });
  }
  return value;
}

export function normaliseBasePath(basePath: string | undefined): string {
  const trimmed = (basePath ?? '').replace(/\/+$/, '');
  if (!BASE_PATH.test(trimmed)) {
    throw configInvalid({
      option: 'basePath',
      reason: 'must be a path like /admin/queue (letters, digits, . _ ~ -)',
      example: "createDashboard({ driver, basePath: '/admin/queue' })",
    });
  }
  return trimmed;
}

const isList = (value: DashboardSchedules): value is readonly ScheduleDefinition[] =>
  Array.isArray(value);

function schedulesOf(schedules: DashboardSchedules | undefined): {
  list: readonly ScheduleDefinition[] | undefined;
  lease: string | undefined;
} {
  if (schedules === undefined) return { list: undefined, lease: undefined };
  const list = isList(schedules) ? schedules : schedules.schedules;
  if (!Array.isArray(list)) {
    throw configInvalid({
      option: 'schedules',
      reason: 'must be a list of schedule definitions (or { schedules, leaseName })',
      example:
        "createDashboard({ driver, schedules: [{ name: 'nightly', cron: '0 3 * * *', job: report }] })",
    });
  }
  return { list, lease: isList(schedules) ? undefined : schedules.leaseName };
}

export function resolveOptions(options: DashboardOptions): ResolvedOptions {
  const { driver } = options;
  if (typeof driver?.list !== 'function') {
    throw configInvalid({
      option: 'driver',
      reason: 'must be a Berth driver',
      example: 'createDashboard({ driver: createMemoryDriver() })',
    });
  }
  for (const name of ['auth', 'tenant'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw configInvalid({
        option: name,
        reason: 'must be a function of the request',
        example: `createDashboard({ driver, ${name}: (request) => ${name === 'auth' ? 'isAdmin(request)' : "request.headers['x-tenant']"} })`,
      });
    }
  }
  const { list, lease } = schedulesOf(options.schedules);
  if (options.csrfSecret !== undefined && options.csrfSecret.length < 16) {
    throw configInvalid({
      option: 'csrfSecret',
      reason: 'must be at least 16 characters',
      example: 'createDashboard({ driver, csrfSecret: process.env.DASHBOARD_CSRF_SECRET })',
    });
  }
  return {
    driver,
    basePath: normaliseBasePath(options.basePath),
    auth: options.auth,
    readOnly: options.readOnly === true,
    tenant: options.tenant,
    schedules: list,
    schedulerLease: lease ?? DEFAULT_LEASE,
    outbox: screenOutbox(options.outbox),
    csrfSecret:
      options.csrfSecret === undefined ? randomBytes(32) : Buffer.from(options.csrfSecret, 'utf8'),
    title: options.title ?? 'Berth',
    refreshMs: integer('refreshMs', options.refreshMs, 5_000, 3_600_000),
    sampleMs: integer('sampleMs', options.sampleMs, 10_000, 60_000),
    staleReadyAfterMs: integer(
      'staleReadyAfterMs',
      options.staleReadyAfterMs,
      DEFAULT_STALE_READY_AFTER_MS,
      MAX_STALE_READY_AFTER_MS,
    ),
    deadLetterScan: integer('deadLetterScan', options.deadLetterScan, 1_000, MAX_DEAD_LETTER_SCAN),
    idSearchScan: integer('idSearchScan', options.idSearchScan, 5_000, MAX_ID_SEARCH_SCAN),
  };
}

const OUTBOX_METHODS = ['stats', 'dead', 'retry', 'discard'] as const;

function screenOutbox(outbox: OutboxAdmin | undefined): OutboxAdmin | undefined {
  if (outbox === undefined) return undefined;
  const given = outbox as unknown as Record<string, unknown> | null;
  if (
    typeof given !== 'object' ||
    given === null ||
    OUTBOX_METHODS.some((name) => typeof given[name] !== 'function')
  ) {
    throw configInvalid({
      option: 'outbox',
      reason: 'must be an outbox with stats, dead, retry and discard',
      example: 'createDashboard({ driver, outbox: createPgOutbox({ pool }) })',
    });
  }
  return outbox;
}
