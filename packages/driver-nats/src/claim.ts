import type { ClaimedJob, ClaimOutcome, JobRecord, ScreenedClaim } from '@berth/core/driver';
import { hydrateJob } from './blobs.js';
import { type NatsContext, writeJob } from './context.js';
import { claimOrder, effectiveJob, type Row } from './index/row.js';
import { announce, tailed } from './lifecycle-announce.js';
import type { TailEvent } from './lifecycle-head.js';
import { answerRecord } from './record.js';
import { buried, taken } from './transitions.js';
import { giveBackLost, type LostClaim } from './unclaim.js';

/** Rounds a claim makes when other claimers take rows it picked; it then answers what it has. */
const ROUNDS = 8;
/** Rounds it goes on for while it holds nothing yet: a claimer that keeps losing is not left with []. */
const EMPTY_ROUNDS = 32;

/** One row's write: taken (and answered), lost to another writer, or failed (maybe landed). */
type Outcome<T> =
  | { readonly kind: 'won'; readonly row: Row; readonly answer: T }
  | { readonly kind: 'lost' }
  | { readonly kind: 'failed'; readonly error: unknown; readonly lost?: LostClaim };

/**
 * The claim's write for one row: conditional on the revision the index holds, so it lands once.
 * It carries `active` (after `stalled` for a lapsed lease taken again), published once it landed.
 */
async function take(
  context: NatsContext,
  row: Row,
  request: ScreenedClaim,
  now: number,
): Promise<Outcome<ClaimedJob>> {
  const before = effectiveJob(row);
  const next = taken(before, request, now);
  const events: TailEvent[] = [['active', next.attempts]];
  if (before.state === 'running') events.unshift(['stalled', before.attempts]);
  const job = tailed(context, before, row.revision, next, events, now);
  const lost: LostClaim = { id: row.id, revision: row.revision, before, wrote: job };
  try {
    if ((await writeJob(context, row.id, { job }, row.revision)) === undefined) {
      return { kind: 'lost' };
    }
    await announce(context, before, job);
    const record = answerRecord(await hydrateJob(context, job), now);
    const answer: ClaimedJob = {
      ...record,
      state: 'running',
      claimedBy: request.workerId,
      visibleAt: now + request.visibilityTimeoutMs,
      resumed: before.state === 'suspended',
    };
    return { kind: 'won', row, answer };
  } catch (error) {
    // The write may have landed (or may still land): the row is given back, not left claimed.
    return { kind: 'failed', error, lost };
  }
}

async function bury(
  context: NatsContext,
  row: Row,
  request: ScreenedClaim,
  now: number,
): Promise<Outcome<JobRecord>> {
  const before = effectiveJob(row);
  const next = buried(before, request.dropExhausted.includes(row.job.name), now);
  const events: TailEvent[] = [
    ['stalled', before.attempts],
    [next.state === 'failed' ? 'failed' : 'dead', next.attempts],
  ];
  const job = tailed(context, before, row.revision, next, events, now);
  try {
    if ((await writeJob(context, row.id, { job }, row.revision)) === undefined) {
      return { kind: 'lost' };
    }
    await announce(context, before, job);
    return { kind: 'won', row, answer: answerRecord(await hydrateJob(context, job), now) };
  } catch (error) {
    return { kind: 'failed', error };
  }
}

/**
 * A claim: first the index catches up with every write any process made before the call (one
 * round trip: the stream's last sequence), so a row another process's answered enqueue made is
 * seen; then the index names the first claimable rows in claim order, and each is taken by ONE
 * conditional write of its record, all in flight at once. Two claimers that pick the same row
 * both write against the same revision: one lands, the other catches up again and takes the next
 * rows in order, so what every claimer takes together is always the first rows in claim order.
 * A write that fails (an error, not a lost race) ends the claim: the rows taken are answered,
 * the failed ones given back (unclaim.ts), and with none taken the error is thrown.
 */
export async function claim(context: NatsContext, request: ScreenedClaim): Promise<ClaimOutcome> {
  // Rows an earlier claim could not give back go first, while the stream is asked where it is.
  await Promise.all([giveBackLost(context), context.mirror.syncFull()]);
  await context.mirror.syncOwn();
  const now = context.clock.now();
  const { limit, names } = request;
  // Caught up with every write made before the call, the index holds every pause that answered.
  const queues = request.queues.filter((queue) => !context.index.pauses.paused(queue));
  const mine = new Set<string>();
  const claimed: { row: Row; answer: ClaimedJob }[] = [];
  const lapsed: JobRecord[] = [];
  const failed: { error: unknown; lost?: LostClaim }[] = [];
  for (let round = 1; ; round += 1) {
    const wantClaim = limit - claimed.length;
    const wantBury = limit - lapsed.length;
    const rows = wantClaim > 0 ? context.index.claimable(queues, now, wantClaim, mine, names) : [];
    const spent = wantBury > 0 ? context.index.spent(queues, now, wantBury, mine, names) : [];
    if (rows.length === 0 && spent.length === 0) break;
    const [took, gone] = await Promise.all([
      Promise.all(rows.map((row) => take(context, row, request, now))),
      Promise.all(spent.map((row) => bury(context, row, request, now))),
    ]);
    // A row lost to another writer is not set aside: caught up, it is tried again if still due.
    let lost = false;
    for (const [index, outcome] of took.entries()) {
      if (outcome.kind === 'lost') lost = true;
      else mine.add(rows[index]?.id ?? '');
      if (outcome.kind === 'won') claimed.push(outcome);
      if (outcome.kind === 'failed') failed.push(outcome);
    }
    for (const [index, outcome] of gone.entries()) {
      if (outcome.kind === 'lost') lost = true;
      else mine.add(spent[index]?.id ?? '');
      if (outcome.kind === 'won') lapsed.push(outcome.answer);
      if (outcome.kind === 'failed') failed.push(outcome);
    }
    if (failed.length > 0 || !lost) break;
    if (round >= (claimed.length > 0 ? ROUNDS : EMPTY_ROUNDS)) break;
    // Other claimers are taking the first rows: catch up with all they took, not only the rows
    // this one lost (a stale index would only pick more rows they hold), before picking again.
    await context.mirror.syncFull();
  }
  // The burials landed: result waits on those jobs hear them, whatever the claim answers.
  if (lapsed.length > 0) context.settles.publish(lapsed.map((job) => job.id));
  if (failed.length > 0) {
    await giveBackLost(
      context,
      failed.flatMap((failure) => (failure.lost === undefined ? [] : [failure.lost])),
    );
    if (claimed.length === 0 && lapsed.length === 0) throw failed[0]?.error;
  }
  claimed.sort((a, b) => claimOrder(a.row, b.row));
  return { claimed: claimed.map((taking) => taking.answer), buried: lapsed };
}
