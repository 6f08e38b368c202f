import type { DriverHooks } from './driver.js';
import type { EnqueueResult, MarkAdvance, MarkPassed, ScreenedEnqueue } from './records.js';

/**
 * What one insert step answers:
 * - `landed`: a new row (`deduped: false`), or the job a caller `id` already names, in any
 *   state, when its tenant is the request's (both none, or the same): `deduped: true`.
 * - `id-taken`: a row of another tenant (or of a tenant on one side only) holds the caller `id`.
 * - `key-held`: a LIVE row of the same `(name, tenantId, idempotencyKey)` refused the insert.
 *   `holderId` names WHICH row refused it; `undefined` when the backend cannot tell (PostgreSQL:
 *   a holder committed after the statement's snapshot).
 * - `raced`: the insert met a writer of the caller `id` it cannot see yet and wrote nothing
 *   (PostgreSQL's `ON CONFLICT DO NOTHING` against a row committed after its snapshot): sent again.
 */
export type InsertOutcome =
  | { readonly kind: 'landed'; readonly result: EnqueueResult }
  | { readonly kind: 'id-taken' }
  | { readonly kind: 'key-held'; readonly holderId: string | undefined }
  | { readonly kind: 'raced' };

/** A screened enqueue with an idempotency key: what a key holder is looked up by. */
export type KeyedEnqueue = ScreenedEnqueue & { readonly idempotencyKey: string };

/**
 * The enqueue steps a backend implements; core runs the protocol over them once, for every
 * driver (`runEnqueue`), so the retry, the race seam and the refusals read the same everywhere:
 *
 *   insert ─ landed ──────────────────────────────▶ the answer
 *          ─ id-taken ────────────────────────────▶ idTaken() (JOB_INVALID, field `id`)
 *          ─ raced ───────────────────────────────▶ insert again
 *          ─ key-held ─▶ hooks.afterEnqueueConflict()
 *                       ─▶ liveHolder ─ a job ─────▶ it, deduped (`onConflict: 'error'`:
 *                                                    JOB_DUPLICATE, `meta.existingId`)
 *                                     ─ undefined ─▶ insert again
 *
 * Two inserts at most: a second miss is `enqueueIndexDisagrees` (DRIVER_UNAVAILABLE), the
 * backend's key index and its rows disagreeing. Group `enqueue` (the retry cases force one miss
 * and two through the seam), `tenancy` (the id's tenant).
 */
export interface EnqueueBackend {
  /**
   * Inserts one job (`runAt > now` → `delayed`, else `ready`; attempts 0, claim 0), with a
   * fresh `runId` and the next insertion sequence, in ONE atomic change that checks the caller
   * `id` first, then the live key; answers what it found (see `InsertOutcome`) and writes
   * nothing unless it answers `landed` with a new row. `request.advanceMark` is undefined here.
   */
  insert(request: ScreenedEnqueue): Promise<InsertOutcome>;
  /**
   * The lookup step after a `key-held` insert: re-reads THAT row by id (`holderId`), or, when
   * `holderId` is undefined, looks the key's live holder up by `(name, tenantId,
   * idempotencyKey)`. Answers the row as `{ id, runId, deduped: true }` while it is LIVE and
   * still holds the request's key; `undefined` when it settled in between (even if another row
   * took the key since: that one is met by the next insert).
   */
  liveHolder(
    request: KeyedEnqueue,
    holderId: string | undefined,
  ): Promise<EnqueueResult | undefined>;
  /**
   * An enqueue with `advanceMark` (`request.id` always set), in ONE atomic change: it reads the
   * mark; at or above `mark.value` it answers `{ markPassed: true }` and writes nothing. Below
   * (or unset), it decides the insert as `insert` would, looking the id's or key's holder up
   * inside the change (no seam, no retry), answers the job (made, or the holder, deduped) and
   * raises the mark to the value in that same change; a refusal (`idTaken()`, or
   * JOB_DUPLICATE with `onConflict: 'error'`) throws and raises nothing. Call
   * `hooks.beforeMarkedEnqueue()` once, before the change is written: a call held there while
   * another enqueues the slot (and runs and purges its job) answers `markPassed`. A crash at any
   * point leaves the job and the raised mark, or neither. A backend whose atomic unit is one key
   * (NATS KV) writes the row pending first, naming the mark write that commits it, and makes
   * that conditional write of the mark the one decision: see its `enqueue-advancing.ts`.
   * Group `marks`.
   */
  enqueueMarked(request: ScreenedEnqueue, mark: MarkAdvance): Promise<EnqueueResult | MarkPassed>;
  /**
   * The same answers as inserting each request in order through the protocol above, in one
   * round trip where the backend allows; its own atomic change, so no seam and no retry. A later
   * item meeting an earlier item's key or id dedupes to it. Atomic: when any item throws
   * (JOB_DUPLICATE, `idTaken()`), nothing from the batch lands; the first refused item in batch
   * order answers. Group `enqueue`.
   */
  enqueueMany(requests: readonly ScreenedEnqueue[]): Promise<readonly EnqueueResult[]>;
  /** The race seams the options gave (`resolveBaseOptions`); `{}` in production. */
  readonly hooks: DriverHooks;
}
