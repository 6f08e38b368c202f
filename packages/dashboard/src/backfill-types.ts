/**
 * What the backfill routes answer, shared by the server and the page (type-only for the page,
 * so it stays free of core). Kept apart from api-types.ts, which the job routes share.
 */
import type { Json } from './api-types.js';

/** Where a run stands, as core's `BackfillStatus`; the last three are final. */
export type BackfillStatusView = 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';

/** What an operator may do to a run as it stands (all false in read-only mode). */
export interface BackfillActions {
  readonly pause: boolean;
  /** A paused run, or a running one whose runner job is gone (`stalled`). */
  readonly resume: boolean;
  readonly cancel: boolean;
}

/** A run of the ledger (core's `BackfillRun`) with what the page shows beside it. */
export interface BackfillRunView {
  readonly runId: string;
  readonly name: string;
  readonly tenantId?: string;
  readonly status: BackfillStatusView;
  /** Where the next pass starts; null before the first pass, and once the run completed. */
  readonly cursor: Json;
  readonly passes: number;
  readonly rowsDone: number;
  /** The runner job driving the run. */
  readonly jobId: string;
  readonly startedAt: number;
  readonly updatedAt: number;
  readonly finishedAt?: number;
  readonly lastError?: string;
  /** `rowsDone` over the time from `startedAt` to `updatedAt`; null while no time passed. */
  readonly rowsPerSecond: number | null;
  /** Running, but its runner job is gone or settled: nothing drives it until a resume. */
  readonly stalled: boolean;
  readonly actions: BackfillActions;
}

/** `GET /api/backfills`: newest start first, at most `limit`. */
export interface BackfillsResponse {
  readonly runs: readonly BackfillRunView[];
  readonly limit: number;
}

/** `GET /api/backfills/:runId` and the actions: the run as it now stands. */
export interface BackfillResponse {
  readonly run: BackfillRunView;
}
