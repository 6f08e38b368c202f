import type { Client, JobDefinition } from '@berth/core';
import type { KeyedPayload } from '../child/jobs.ts';
import { type Enqueued, enqueueOne } from '../enqueue.ts';
import type { Fleet, Member } from '../fleet.ts';
import type { Exclusive } from './exclusive.ts';
import { at, sleepUnless } from './timeline.ts';

/** The queue only the holder claims from, and the one only the rival claims from. */
export const HOLDER_QUEUE = 'keyed-holder';
export const RIVAL_QUEUE = 'keyed-rival';
const UNITS = 20;
/** Fresh keys one stall may go through before it gives up (the ci test then fails loudly). */
const TRIES = 6;
/** Leases a try waits for the holder to start its job before it sets the stall up again. */
const START_LEASES = 4;

/** The holder, when it runs the handler of `key` now. */
const holderOf = (fleet: Fleet, key: string): Member | undefined =>
  fleet.alive().find((member) => member.queues.includes(HOLDER_QUEUE) && member.holding.has(key));

/**
 * A slot holder stalled past its slot ttl, made to happen every time: the holder runs a long job
 * of a fresh key from a queue only it claims (and only on a wake, never by a poll), so nobody
 * re-claims that job while it is stopped or as it wakes (its `extend` still succeeds); a job of
 * the same key waits on a queue only the rival claims, and takes the slot once its ttl runs out. When the holder wakes, the limit of 1
 * holds only if its attempt is aborted on the failed slot renewal.
 *
 * Under load the holder's claim can come back so late that its worker ends the attempt (the
 * lease lapsed by its own clock) before or soon after the handler starts; nothing re-claims
 * that job until the next wake. So a try counts only once the holder has run the handler for a
 * whole lease (a renewal landed) and still runs it when it is stopped; otherwise the stall is
 * set up again with a fresh key.
 */
export async function stallSlotHolder(input: {
  readonly fleet: Fleet;
  readonly client: Client;
  readonly job: JobDefinition<KeyedPayload, KeyedPayload>;
  readonly unitMs: number;
  readonly into: Enqueued;
  readonly start: number;
  readonly atMs: readonly number[];
  readonly leaseMs: number;
  readonly stallMs: number;
  readonly signal: AbortSignal;
  /** Shared with the server crash: the rival can take the lapsed slot only while the server is up. */
  readonly exclusive: Exclusive;
  /** What each try did, in words (a stall that never happened explains itself). */
  readonly tries: string[];
}): Promise<void> {
  for (const [index, atMs] of input.atMs.entries()) {
    await at(input.start, atMs, input.signal, () =>
      input.exclusive.run(async () => {
        for (let attempt = 0; attempt < TRIES && !input.signal.aborted; attempt += 1) {
          const outcome = await stallOnce(input, `stalled-${index}-${attempt}`);
          input.tries.push(`stall ${index} try ${attempt}: ${outcome}`);
          if (outcome === STALLED) return;
        }
      }),
    );
  }
}

const STALLED = 'holder stopped while it ran the job';

/** One try with a fresh key: answers what happened, {@link STALLED} when the holder was stopped. */
async function stallOnce(
  input: Parameters<typeof stallSlotHolder>[0],
  key: string,
): Promise<string> {
  const { fleet, signal, leaseMs } = input;
  const payload = { key, units: UNITS, unitMs: input.unitMs };
  const enqueued = Date.now();
  await enqueueOne(input.client, input.job, payload, input.into, HOLDER_QUEUE);
  const startBy = Date.now() + START_LEASES * leaseMs;
  while (!signal.aborted && holderOf(fleet, key) === undefined && Date.now() < startBy) {
    await sleepUnless(20, signal);
  }
  if (signal.aborted) return 'the run ended';
  const started = Date.now();
  if (holderOf(fleet, key) === undefined)
    return `not started ${started - enqueued} ms after the enqueue`;
  // Held for a whole lease: the claim was not answered too late to renew.
  const heldUntil = started + leaseMs;
  while (!signal.aborted && holderOf(fleet, key) !== undefined && Date.now() < heldUntil) {
    await sleepUnless(20, signal);
  }
  const since = `started ${started - enqueued} ms after the enqueue`;
  if (signal.aborted) return 'the run ended';
  if (holderOf(fleet, key) === undefined) return `${since}, ended after ${Date.now() - started} ms`;
  await enqueueOne(input.client, input.job, payload, input.into, RIVAL_QUEUE);
  const member = holderOf(fleet, key);
  if (member === undefined) return `${since}, ended before the rival's job was enqueued`;
  await fleet.stall(member, input.stallMs);
  return STALLED;
}
