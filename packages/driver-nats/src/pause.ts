import type { QueuePause } from '@berth/core/driver';
import type { NatsContext } from './context.js';
import type { PauseDoc } from './index/pause-index.js';
import { decodeJson, encodeJson } from './record.js';
import { writeKey } from './writes.js';

/** Times a pause or resume re-reads and decides again when a racing write got there first. */
const TRIES = 32;

interface Read {
  readonly doc: PauseDoc | undefined;
  /** 0 when the key was never written: a conditional write then creates it. */
  readonly revision: number;
}

/** The queue's pause key read from the bucket itself (the newest value, not the mirror's). */
async function read(context: NatsContext, queue: string): Promise<Read> {
  const entry = await context.jobs.get(context.subjects.pause(queue));
  if (entry === null) return { doc: undefined, revision: 0 };
  const doc = entry.operation === 'PUT' ? decodeJson<PauseDoc>(entry.value) : undefined;
  return { doc: doc?.queue === queue ? doc : undefined, revision: entry.revision };
}

/** One conditional write of the pause key; the mirror is told, so this process reads it. */
async function write(context: NatsContext, queue: string, doc: PauseDoc, revision: number) {
  const key = context.subjects.pause(queue);
  const written = await writeKey(context.jobs, key, encodeJson(doc), revision);
  if (written !== undefined) context.mirror.wrote(written);
  return written !== undefined;
}

/**
 * Pauses `queue`: ONE conditional write of its key over the revision read. A pause that holds
 * answers as it stands; of racing pauses one write lands and the others re-read and answer it.
 * The key lives in the jobs bucket, which every process's claim catches up with first.
 */
export async function pause(context: NatsContext, queue: string): Promise<QueuePause> {
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const { doc, revision } = await read(context, queue);
    if (doc?.pausedAt !== undefined) return { queue, paused: true, pausedAt: doc.pausedAt };
    const pausedAt = context.clock.now();
    if (await write(context, queue, { queue, pausedAt }, revision)) {
      return { queue, paused: true, pausedAt };
    }
  }
  throw new Error(`the pause of queue ${JSON.stringify(queue)} kept changing under ${TRIES} tries`);
}

/** Resumes `queue` (a conditional rewrite without `pausedAt`), then wakes its workers. */
export async function resume(context: NatsContext, queue: string): Promise<QueuePause> {
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const { doc, revision } = await read(context, queue);
    if (doc?.pausedAt === undefined || (await write(context, queue, { queue }, revision))) {
      context.wake.publish([queue]);
      return { queue, paused: false };
    }
  }
  throw new Error(`the pause of queue ${JSON.stringify(queue)} kept changing under ${TRIES} tries`);
}

/** Every paused queue, once the mirror caught up with every write made before the call. */
export async function listPaused(context: NatsContext): Promise<QueuePause[]> {
  await context.mirror.syncFull();
  return context.index.pauses
    .list()
    .map(({ queue, pausedAt }) => ({ queue, paused: true, pausedAt }));
}
