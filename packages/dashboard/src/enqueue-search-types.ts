/**
 * What the add-a-job and payload-search routes answer, shared by the server and the page
 * (type-only for the page). Kept apart from api-types.ts, which the other routes share.
 */
import type { JobSummary, JobView } from './api-types.js';

/** `POST /api/jobs`: the job made, or (`deduped`) the live job holding the idempotency key. */
export interface EnqueueResponse {
  readonly job: JobView;
  readonly deduped: boolean;
}

/** A job whose payload matched, with the value at the path (JSON text, cut to 160 characters). */
export interface PayloadMatch extends JobSummary {
  readonly value: string;
}

/** `GET /api/payload-search`: matches among the jobs read, and where to go on from. */
export interface PayloadSearchResponse {
  /** The expression as given. */
  readonly where: string;
  /** Matches, newest first. */
  readonly jobs: readonly PayloadMatch[];
  /** Jobs this request read (each list page is read whole). */
  readonly scanned: number;
  /** The most it would read: `scan`, default and at most 1 000. */
  readonly scanLimit: number;
  /** Present when older jobs were not read: pass it as `after` to continue. */
  readonly next?: string;
}
