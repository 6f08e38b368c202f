import type { JobState } from '../contract/states.js';

/** A JSON value as an error's `meta` holds it. */
export type MetaJson =
  | null
  | boolean
  | number
  | string
  | readonly MetaJson[]
  | { readonly [key: string]: MetaJson };

/**
 * Every error code and the shape of its `meta`. The code union is this interface's keys, so a
 * misspelled code does not compile, and `isBerthError(error, code)` narrows `meta` to the code's
 * shape. A driver or an app adds codes by declaration merging, then registers each at runtime:
 *
 * ```ts
 * declare module '@berth/core' {
 *   interface BerthErrorMetas { MY_CODE: { readonly thing: string } }
 * }
 * registerErrorCode({ code: 'MY_CODE', title: '...', fix: '...' });
 * ```
 */
export interface BerthErrorMetas {
  JOB_INVALID: {
    readonly field: string;
    readonly reason: string;
    /** The request's position in a batch. */
    readonly index?: number;
    /** Where in a JSON value the bad part sits (`$.a[2]`). */
    readonly path?: string;
    readonly value?: string;
    readonly bytes?: number;
    readonly maxBytes?: number;
    /** A payload a job's schema refused: the job, and the validator's issues. */
    readonly job?: string;
    readonly issues?: readonly {
      readonly message: string;
      readonly path?: readonly (string | number)[];
    }[];
  };
  JOB_DUPLICATE: {
    readonly name: string;
    readonly idempotencyKey: string;
    readonly existingId: string;
    readonly tenantId?: string;
  };
  JOB_NOT_FOUND: { readonly jobId: string };
  JOB_NOT_REQUEUEABLE: { readonly jobId: string; readonly state: JobState | 'live' };
  JOB_NOT_CANCELLABLE: { readonly jobId: string; readonly state: JobState };
  JOB_NOT_PROMOTABLE: { readonly jobId: string; readonly state: JobState };
  JOB_NOT_DELETABLE: { readonly jobId: string; readonly state: JobState };
  JOB_PAGE_INVALID: {
    readonly reason: 'cursor' | 'limit' | 'both-cursors';
    readonly limit?: number;
    /** A limit that is not a finite number, described (`10n`, `an object`). */
    readonly received?: string;
    readonly maxPage?: number;
  };
  LEASE_LOST: { readonly jobId: string; readonly workerId: string; readonly claim: number };
  LEASE_LAPSED: { readonly jobId?: string };
  DRIVER_UNAVAILABLE: {
    readonly driver: string;
    readonly operation: string;
    /** The backend's own error code, when it gave one (`ECONNREFUSED`, a SQLSTATE). */
    readonly errorCode?: string;
    /**
     * A write the primary made but too few replicas confirmed (a driver's `durability` option):
     * how many were asked for, how many confirmed in time.
     */
    readonly replicas?: { readonly wanted: number; readonly confirmed: number };
  };
  DRIVER_NOT_MIGRATED: {
    readonly driver: string;
    /** Where the driver looked: a pg schema. */
    readonly schema: string;
    /**
     * The version the backend is at; 0 when nothing was ever migrated. Absent when a statement
     * met a missing table and the version was not read.
     */
    readonly version?: number;
    /** The version this driver needs. */
    readonly required: number;
  };
  DRIVER_CLOSED: { readonly driver: string; readonly operation: string };
  JOB_TIMEOUT: {
    readonly jobId: string;
    readonly timeoutMs: number;
    readonly name?: string;
    readonly attempt?: number;
    readonly runId?: string;
    readonly step?: string;
  };
  JOB_ABORTED: {
    readonly jobId: string;
    readonly name: string;
    readonly workerId: string;
    readonly claim: number;
  };
  WORKER_DRAINING: {
    readonly jobId: string;
    readonly name: string;
    readonly workerId: string;
    readonly graceMs: number;
  };
  JOB_FAILED: {
    readonly jobId: string;
    readonly name: string;
    readonly state: 'failed' | 'dead' | 'cancelled';
    /** The job's last error, when it settled with one. */
    readonly error?: { readonly code?: string; readonly message: string };
  };
  JOB_WAIT_TIMEOUT: {
    readonly jobId: string;
    readonly name: string;
    readonly timeoutMs: number;
    /** The state the job was in when the wait gave up. */
    readonly state: string;
  };
  STEP_INVALID: {
    readonly jobId?: string | undefined;
    readonly runId?: string | undefined;
    readonly step?: string | undefined;
    readonly [key: string]: MetaJson | undefined;
  };
  CONFIG_INVALID: { readonly option: string; readonly reason: string };
  BACKFILL_RUNNING: { readonly name: string; readonly active: readonly string[] };
  BACKFILL_NOT_FOUND: { readonly runId: string };
  SCHEDULE_NOT_FOUND: { readonly name: string; readonly tenantId?: string };
  BACKFILL_NOT_ACTIVE: { readonly runId: string; readonly status: string };
  OUTBOX_NO_TX: { readonly table: string };
  WEBHOOK_INVALID: { readonly reason: 'header' | 'timestamp' | 'signature' | 'body' };
}

/** Every registered code: core's, and any a driver or app merged into `BerthErrorMetas`. */
export type BerthErrorCode = keyof BerthErrorMetas & string;
