/**
 * What the lifecycle routes answer, shared by the server and the page (type-only for the page,
 * so it stays free of core). Kept apart from api-types.ts, which the job routes share.
 */

/** Core's `LifecycleEventType`: what happened to a job. */
export type LifecycleEventType =
  | 'active'
  | 'progress'
  | 'completed'
  | 'retried'
  | 'suspended'
  | 'failed'
  | 'dead'
  | 'stalled'
  | 'cancelled';

/** One event of the stream (core's `LifecycleEvent`). */
export interface LifecycleEventView {
  /** Opaque: pass it as `after` to read on from it. */
  readonly position: string;
  readonly type: LifecycleEventType;
  readonly jobId: string;
  readonly name: string;
  readonly queue: string;
  readonly tenantId?: string;
  readonly attempt: number;
  readonly at: number;
}

/** `GET /api/lifecycle`: one page of the stream, in stream order (oldest first). */
export interface LifecycleResponse {
  readonly events: readonly LifecycleEventView[];
  /** Where to read on from (the last event examined); absent only for an empty stream read from its start. */
  readonly next?: string;
  /** Nothing follows `next` yet: a tailing reader waits before reading again. */
  readonly caughtUp: boolean;
}

/** `GET /api/lifecycle/end`: the newest event's position, or null while the stream is empty. */
export interface LifecycleEndResponse {
  readonly end: string | null;
}
