import type { NatsContext } from './context.js';
import {
  incarnation,
  mayBeUnsent,
  messageId,
  type StoredLifecycleEvent,
  type TailEvent,
  tailEvents,
  withTail,
} from './lifecycle-head.js';
import {
  BLIND_MS,
  bounds,
  type LifecycleStream,
  lastOn,
  publishEvent,
} from './lifecycle-stream.js';
import type { StoredJob } from './record.js';

/** Job ids whose newest events this process saw the stream take, at most: the oldest go past it. */
const MAX_REMEMBERED = 50_000;

/** What a process keeps of the lifecycle stream (`context.lifecycle`). */
export interface LifecycleState {
  readonly stream: LifecycleStream;
  /** The highest stream sequence this process has seen: a write's `floor`. */
  lastSeq: number;
  /** The jobs-bucket revision the repair pass verified up to, as last read. */
  swept: number;
  /** Job id → the record's incarnation and the newest event number the stream took. */
  readonly sent: Map<string, { readonly s: number; readonly k: number }>;
  /** Events a tail whose fate could no longer be told was left without (see `ensureSent`). */
  abandoned: number;
  /** Test seam: runs after a write landed, before its events are published; a throw skips them. */
  beforePublish?: ((jobId: string) => void | Promise<void>) | undefined;
}

export function lifecycleState(stream: LifecycleStream, lastSeq: number): LifecycleState {
  return { stream, lastSeq, swept: 0, sent: new Map(), abandoned: 0 };
}

function remember(state: LifecycleState, id: string, s: number, k: number, seq: number): void {
  if (seq > state.lastSeq) state.lastSeq = seq;
  const known = state.sent.get(id);
  if (known !== undefined && known.s === s && known.k >= k) return;
  state.sent.delete(id);
  state.sent.set(id, { s, k });
  if (state.sent.size > MAX_REMEMBERED) {
    const oldest = state.sent.keys().next().value;
    if (oldest !== undefined) state.sent.delete(oldest);
  }
}

/** Whether the record's tail is known to be in the stream (by itself, the repair pass or this process). */
export function tailSent(context: NatsContext, job: StoredJob, revision: number): boolean {
  if (!mayBeUnsent(job)) return true;
  if (revision <= context.lifecycle.swept) return true;
  const known = context.lifecycle.sent.get(job.id);
  return known !== undefined && known.s === incarnation(job) && known.k >= (job.lc?.n ?? 0);
}

/**
 * `after` (the record a transition writes over `before`, read at `revision`) carrying the
 * change's events as its tail, numbered on from `before`'s, and how many of the job's events are
 * known to be in the stream. No events: `after` unchanged.
 */
export function tailed(
  context: NatsContext,
  before: StoredJob,
  revision: number,
  after: StoredJob,
  events: readonly TailEvent[],
  now: number,
): StoredJob {
  const prior = before.lc;
  const sent = prior === undefined ? 0 : tailSent(context, before, revision) ? prior.n : prior.sent;
  return withTail(before, after, events, sent, now, context.lifecycle.lastSeq);
}

/** Sends each event, in order on one connection (so the stream takes them in that order). */
function send(context: NatsContext, events: readonly StoredLifecycleEvent[]): Promise<number>[] {
  const { stream } = context.lifecycle;
  return events.map((event) =>
    publishEvent(
      stream,
      context.subjects.lifecycle(event.jobId),
      event,
      messageId(event.jobId, event.s, event.k),
    ),
  );
}

async function sendAll(context: NatsContext, job: StoredJob, events: StoredLifecycleEvent[]) {
  if (events.length === 0) return;
  const seqs = await Promise.all(send(context, events));
  const last = events.at(-1) as StoredLifecycleEvent;
  remember(context.lifecycle, job.id, last.s, last.k, Math.max(...seqs));
}

/**
 * After the write of `after` over `before` landed: its events go to the stream, and the call
 * answers only once the stream took them, so they are readable everywhere when it does. A tail
 * of `before` that may be missing goes first, on the same connection, so the job's events keep
 * their order: a young one blind (a copy the stream already holds is dropped as a duplicate), an
 * older one once its job's newest stored event shows it missing.
 */
export async function announce(
  context: NatsContext,
  before: StoredJob,
  after: StoredJob,
): Promise<void> {
  const head = after.lc;
  if (head === undefined || head === before.lc) return;
  await context.lifecycle.beforePublish?.(after.id);
  const prior = before.lc;
  const repair = prior !== undefined && head.sent < prior.n ? before : undefined;
  const own = tailEvents(after);
  // Published late (a frozen process), a first copy might fall outside the duplicate window of
  // one a repair already stored: the stream is asked first.
  if (Date.now() - head.wall >= BLIND_MS) {
    if (repair !== undefined) await ensureSent(context, repair);
    await ensureSent(context, after);
    return;
  }
  if (repair === undefined || Date.now() - (prior?.wall ?? 0) < BLIND_MS) {
    await sendAll(context, after, [...(repair === undefined ? [] : tailEvents(repair)), ...own]);
    return;
  }
  await ensureSent(context, repair);
  await sendAll(context, after, own);
}

/**
 * Makes sure the record's tail is in the stream, once: the job's newest stored event tells
 * which of the tail's events are missing, and those are published. When the stream keeps none
 * of the job's events, a young tail is published (a copy the stream took and already trimmed is
 * still remembered as a duplicate); an old one only while the stream still holds everything
 * after its writer's `floor`. Otherwise it can no longer be told whether the tail was stored and
 * trimmed or never stored: it is left out (counted in `abandoned`) rather than risk a copy.
 */
export async function ensureSent(context: NatsContext, job: StoredJob): Promise<void> {
  const head = job.lc;
  if (head === undefined) return;
  const events = tailEvents(job);
  const s = incarnation(job);
  const known = context.lifecycle.sent.get(job.id);
  if (known !== undefined && known.s === s && known.k >= head.n) return;
  const last = await lastOn(context.lifecycle.stream, context.subjects.lifecycle(job.id));
  if (last !== undefined) {
    const stored = last.event.s === s ? last.event.k : 0;
    if (stored >= head.n) {
      remember(context.lifecycle, job.id, s, head.n, last.seq);
      return;
    }
    await sendAll(
      context,
      job,
      events.filter((event) => event.k > stored),
    );
    return;
  }
  if (Date.now() - head.wall >= BLIND_MS) {
    const { first } = await bounds(context.lifecycle.stream);
    if (first > head.floor + 1) {
      context.lifecycle.abandoned += events.length;
      process.emitWarning(
        `berth: the nats driver left out ${events.length} lifecycle event(s) of job ${job.id}: its writer stopped before publishing them, and the stream has since trimmed past all it knew, so whether it stored them cannot be told`,
        'BerthWarning',
      );
      return;
    }
  }
  await sendAll(context, job, events);
}
