import {
  filtersLifecycleRead,
  LIFECYCLE_READ_SCAN,
  type LifecycleEvent,
  type LifecyclePage,
  lifecyclePositionInvalid,
  matchesLifecycleRead,
  type ScreenedLifecycleRead,
} from '@berth/core/driver';
import type { NatsContext } from './context.js';
import type { StoredLifecycleEvent } from './lifecycle-head.js';
import { bounds, messagesFrom, type StoredMessage } from './lifecycle-stream.js';

/** A position is a stream sequence, written as a plain decimal number. */
const POSITION = /^[1-9][0-9]{0,15}$/;

/** The event as a reader gets it: the stream sequence as its position, the per-job numbering left out. */
function eventOf(message: StoredMessage): LifecycleEvent {
  const { s: _s, k: _k, ...told } = message.event as StoredLifecycleEvent;
  return { position: String(message.seq), ...told };
}

/**
 * A read: the stream's bounds (one round trip), then the messages from just after `after` (from
 * the oldest kept when it was trimmed): `limit` of them when nothing filters (each matches), else
 * up to LIFECYCLE_READ_SCAN (`messagesFrom`: direct gets, or one consumer fetch for many). Every
 * event is examined, none skipped by a server-side filter, so `next` and `caughtUp` answer as on
 * every other driver. The stream only ever loses its oldest messages, so the kept ones are one
 * run of sequences.
 */
export async function readLifecycle(
  context: NatsContext,
  request: ScreenedLifecycleRead,
): Promise<LifecyclePage> {
  const { stream } = context.lifecycle;
  const { first, last } = await bounds(stream);
  let after = 0;
  if (request.after !== undefined) {
    after = POSITION.test(request.after) ? Number(request.after) : Number.NaN;
    if (!(after <= last)) throw lifecyclePositionInvalid(request.after);
  }
  const start = Math.max(after + 1, first);
  const want = filtersLifecycleRead(request) ? LIFECYCLE_READ_SCAN : request.limit;
  // Those trimmed since the bounds were read are never examined, as if they had gone before.
  const messages = await messagesFrom(stream, start, last, want);
  const events: LifecycleEvent[] = [];
  let next = request.after;
  let reached = start - 1;
  for (const message of messages) {
    const event = eventOf(message);
    next = event.position;
    reached = message.seq;
    if (matchesLifecycleRead(event, request)) events.push(event);
    if (events.length === request.limit) break;
  }
  return {
    events,
    ...(next === undefined ? {} : { next }),
    caughtUp: reached >= last,
  };
}

/** The newest event's position, or undefined while the stream holds none. */
export async function lifecycleEnd(context: NatsContext): Promise<string | undefined> {
  const { first, last } = await bounds(context.lifecycle.stream);
  return last >= first ? String(last) : undefined;
}
