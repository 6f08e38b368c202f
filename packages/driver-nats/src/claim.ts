import type { ClaimedJob, ClaimOutcome, JobRecord, ScreenedClaim } from '@berth/core';
import { hydrateJob } from './blobs.js';
import { type NatsContext, writeJob } from './context.js';
import { effectiveJob, type Row } from './index/row.js';
import { answerRecord } from './record.js';
import { buried, taken } from './transitions.js';

/** Rounds a claim makes when other claimers take the rows it picked. */
const ROUNDS = 8;
/**
 * After a round lost races (and for a few claims after one did), rows are picked at random among
 * this many times as many due rows: claimers that all see the same first rows stop colliding on
 * them. A claimer that meets no other takes rows in exact claim order.
 */
const SPREAD = 8;

/** Claims after one that lost a race that still spread out from their first round. */
const REMEMBER = 8;
const recentlyContended = new WeakMap<NatsContext, number>();

/** `count` of `rows` picked at random, kept in the order they came in. */
function sample<T>(rows: readonly T[], count: number): T[] {
  if (rows.length <= count) return [...rows];
  const picked = new Set<number>();
  while (picked.size < count) picked.add(Math.floor(Math.random() * rows.length));
  return [...picked].sort((a, b) => a - b).map((index) => rows[index] as T);
}

/** The claim's write for one row: conditional on the revision the index holds, so it lands once. */
async function take(
  context: NatsContext,
  row: Row,
  request: ScreenedClaim,
  now: number,
): Promise<ClaimedJob | undefined> {
  const before = effectiveJob(row);
  const job = taken(before, request, now);
  if ((await writeJob(context, row.id, { job }, row.revision)) === undefined) return undefined;
  const record = answerRecord(await hydrateJob(context, job), now);
  return {
    ...record,
    state: 'running',
    claimedBy: request.workerId,
    visibleAt: now + request.visibilityTimeoutMs,
    resumed: before.state === 'suspended',
  };
}

async function bury(
  context: NatsContext,
  row: Row,
  request: ScreenedClaim,
  now: number,
): Promise<JobRecord | undefined> {
  const job = buried(effectiveJob(row), request.dropExhausted.includes(row.job.name), now);
  if ((await writeJob(context, row.id, { job }, row.revision)) === undefined) return undefined;
  return answerRecord(await hydrateJob(context, job), now);
}

/**
 * A claim: the index names the first claimable rows in claim order, and each is taken by ONE
 * conditional write of its record. Two claimers that pick the same row both write against the
 * same revision; one lands, the other moves on to the next rows. Rows the index holds need no
 * round trip to find; only when it holds fewer than asked does the claim first catch up with
 * every other process's writes (one round trip).
 */
export async function claim(context: NatsContext, request: ScreenedClaim): Promise<ClaimOutcome> {
  const { mirror } = context;
  await mirror.syncOwn();
  const now = context.clock.now();
  const { queues, limit } = request;
  const tried = new Set<string>();
  const claimed: ClaimedJob[] = [];
  const lapsed: JobRecord[] = [];
  let caughtUp = false;
  const memory = recentlyContended.get(context) ?? 0;
  let contended = memory > 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const wantClaim = limit - claimed.length;
    const wantBury = limit - lapsed.length;
    const window = contended ? wantClaim * SPREAD : wantClaim;
    const due =
      wantClaim > 0 ? context.index.claimable(queues, now, window, tried, request.names) : [];
    const rows = contended ? sample(due, wantClaim) : due;
    if (rows.length < wantClaim && !caughtUp) {
      caughtUp = true;
      await mirror.syncFull();
      round -= 1;
      continue;
    }
    const spent =
      wantBury > 0 ? context.index.spent(queues, now, wantBury, tried, request.names) : [];
    if (rows.length === 0 && spent.length === 0) break;
    for (const row of [...rows, ...spent]) tried.add(row.id);
    const [took, gone] = await Promise.all([
      Promise.all(rows.map((row) => take(context, row, request, now))),
      Promise.all(spent.map((row) => bury(context, row, request, now))),
    ]);
    let lost = false;
    for (const job of took) {
      if (job === undefined) lost = true;
      else claimed.push(job);
    }
    for (const job of gone) {
      if (job === undefined) lost = true;
      else lapsed.push(job);
    }
    if (!lost) break;
    contended = true;
    // The rows it lost went to other processes: catch up with them before picking again.
    await mirror.syncFull();
  }
  recentlyContended.set(context, contended ? REMEMBER : Math.max(0, memory - 1));
  return { claimed, buried: lapsed };
}
