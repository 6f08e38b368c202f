import { type NatsContext, writeJob } from './context.js';
import { readJob } from './docs.js';
import type { StoredJob } from './record.js';

/**
 * A claim write whose answer never came back (an error, a timeout: it may have landed, or may
 * still land), or that landed but could not be answered: the row must not keep a claim nobody
 * was told of, or it would spend an attempt that never ran.
 */
export interface LostClaim {
  readonly id: string;
  /** The revision the claim's write was conditioned on. */
  readonly revision: number;
  /** The record the claim started from. */
  readonly before: StoredJob;
  /** The record the claim wrote. */
  readonly wrote: StoredJob;
}

/** Lost claims a process keeps to give back later, at most: the oldest are dropped past it. */
const MAX_LOST_CLAIMS = 1_000;
/** Writes one give-back makes before it waits for the next claim to try again. */
const TRIES = 4;

const lostClaims = new WeakMap<NatsContext, LostClaim[]>();

/** The row still holds the claim `lost` wrote: nothing has changed it since. */
const holds = (job: StoredJob, lost: LostClaim): boolean =>
  job.state === 'running' &&
  job.claimedBy === lost.wrote.claimedBy &&
  job.claim === lost.wrote.claim &&
  job.visibleAt === lost.wrote.visibleAt;

/**
 * Gives one row back. While the key is still at the revision the claim's write named, that
 * write has not landed: the record is written over it unchanged, so the write can never land
 * afterwards (it names a revision the key has left). Once it has landed and nothing changed the
 * row since, the record goes back to the state it was claimed from with the attempt restored
 * (the claim number stays grown: a fence it handed out to nobody lands nothing).
 * Answers whether the row is settled either way.
 */
async function giveBack(context: NatsContext, lost: LostClaim): Promise<boolean> {
  const fenced = await writeJob(context, lost.id, { job: lost.before }, lost.revision);
  if (fenced !== undefined) return true;
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const current = await readJob(context, lost.id);
    if (current === undefined || !holds(current.job, lost)) return true;
    // The claim landed, and with it its lifecycle events: the record keeps them, so they are
    // published (by the next writer or the repair pass) even if the claim's own publish failed.
    const restored: StoredJob = {
      ...lost.before,
      claim: lost.wrote.claim,
      updatedAt: context.clock.now(),
      ...(lost.wrote.lc === undefined ? {} : { lc: lost.wrote.lc }),
    };
    if ((await writeJob(context, lost.id, { job: restored }, current.revision)) !== undefined)
      return true;
  }
  return false;
}

/**
 * Gives back `lost` and every lost claim still remembered from earlier calls; one that fails
 * again is kept for the next claim to try (on the same connection, so after the write it undoes).
 */
export async function giveBackLost(
  context: NatsContext,
  lost: readonly LostClaim[] = [],
): Promise<void> {
  let kept = lostClaims.get(context);
  if (kept === undefined) {
    kept = [];
    lostClaims.set(context, kept);
  }
  const pending = [...kept.splice(0, kept.length), ...lost];
  if (pending.length === 0) return;
  const settled = await Promise.all(
    pending.map((claim) => giveBack(context, claim).catch(() => false)),
  );
  pending.forEach((claim, index) => {
    if (settled[index] !== true) kept.push(claim);
  });
  if (kept.length > MAX_LOST_CLAIMS) kept.splice(0, kept.length - MAX_LOST_CLAIMS);
}
