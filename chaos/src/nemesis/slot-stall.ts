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

/**
 * A slot holder stalled past its slot ttl, made to happen every time: the holder runs a long job
 * of a fresh key from a queue only it claims (and only on a wake, never by a poll), so nobody
 * re-claims that job while it is stopped or as it wakes (its `extend` still succeeds); a job of
 * the same key waits on a queue only the rival claims, and takes the slot once its ttl runs out. When the holder wakes, the limit of 1
 * holds only if its attempt is aborted on the failed slot renewal.
 */
export async function stallSlotHolder(input: {
  readonly fleet: Fleet;
  readonly client: Client;
  readonly job: JobDefinition<KeyedPayload, KeyedPayload>;
  readonly unitMs: number;
  readonly into: Enqueued;
  readonly start: number;
  readonly atMs: readonly number[];
  readonly stallMs: number;
  readonly signal: AbortSignal;
  /** Shared with the server crash: the rival can take the lapsed slot only while the server is up. */
  readonly exclusive: Exclusive;
}): Promise<void> {
  for (const [index, atMs] of input.atMs.entries()) {
    await at(input.start, atMs, input.signal, () =>
      input.exclusive.run(async () => {
        const payload = { key: `stalled-${index}`, units: UNITS, unitMs: input.unitMs };
        const holder = () =>
          input.fleet
            .alive()
            .find(
              (member: Member) =>
                member.queues.includes(HOLDER_QUEUE) && member.holding.has(payload.key),
            );
        await enqueueOne(input.client, input.job, payload, input.into, HOLDER_QUEUE);
        const deadline = Date.now() + 15_000;
        while (!input.signal.aborted && holder() === undefined && Date.now() < deadline) {
          await sleepUnless(20, input.signal);
        }
        const member = holder();
        if (member === undefined) return;
        await enqueueOne(input.client, input.job, payload, input.into, RIVAL_QUEUE);
        await input.fleet.stall(member, input.stallMs);
      }),
    );
  }
}
