import { randomUUID } from 'node:crypto';
import type { Client, JobDefinition } from '@berth/core';
import { now } from './ledger/events.ts';

/** Every id the run tried to enqueue, those whose enqueue was answered, and when. */
export interface Enqueued {
  readonly ids: string[];
  readonly acknowledged: Set<string>;
  readonly ackedAt: Map<string, number>;
}

export const noneEnqueued = (): Enqueued => ({
  ids: [],
  acknowledged: new Set(),
  ackedAt: new Map(),
});

const RETRIES = 20;
const RETRY_PAUSE_MS = 250;

/**
 * Enqueues one job under a caller-allocated id, trying again with the same id (which dedupes)
 * while the server is away. Only an answered enqueue counts as acknowledged.
 */
export async function enqueueOne<P>(
  client: Client,
  job: JobDefinition<P, P>,
  payload: P,
  into: Enqueued,
  queue?: string,
): Promise<void> {
  const id = randomUUID();
  into.ids.push(id);
  const options = queue === undefined ? { id } : { id, queue };
  for (let attempt = 0; attempt < RETRIES; attempt++) {
    try {
      await client.enqueue(job, payload as never, options);
      into.acknowledged.add(id);
      into.ackedAt.set(id, now());
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    }
  }
}

/** Enqueues `payloads` evenly over `spreadMs`, in ticks of 100 ms. */
export async function enqueueSpread<P>(input: {
  readonly client: Client;
  readonly job: JobDefinition<P, P>;
  readonly payloads: readonly P[];
  readonly spreadMs: number;
  readonly into: Enqueued;
}): Promise<void> {
  const ticks = Math.max(1, Math.floor(input.spreadMs / 100));
  const perTick = Math.ceil(input.payloads.length / ticks);
  const pending: Promise<void>[] = [];
  const start = Date.now();
  for (let tick = 0; tick * perTick < input.payloads.length; tick++) {
    const wait = start + tick * 100 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    for (const payload of input.payloads.slice(tick * perTick, (tick + 1) * perTick)) {
      pending.push(enqueueOne(input.client, input.job, payload, input.into));
    }
  }
  await Promise.all(pending);
}
