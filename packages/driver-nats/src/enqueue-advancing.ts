import type {
  EnqueueResult,
  MarkAdvance,
  MarkPassed,
  MarkStore,
  ScreenedEnqueue,
} from '@berth/core';
import type { NatsContext } from './context.js';
import { enqueueOne } from './enqueue.js';

/**
 * `enqueue` with `advanceMark`. KV writes one key atomically and the job and the mark are two
 * keys, so the order of the writes carries the guarantee:
 *
 * 1. The mark is read: at or above the value, `markPassed` and nothing is written.
 * 2. The job is written first, as `enqueue` writes it, carrying the mark (`StoredJob.mark`):
 *    created under its id (always given here) only when the key is free, so of any number of
 *    writers of one slot one makes the job and the others meet it and answer it, deduped.
 * 3. Then the mark is raised by a write conditioned on the revision read (`marks.advance`).
 *
 * A crash after 2 leaves the job with the mark behind. The next enqueue of the slot (same id,
 * same value) passes 1, meets the job at 2 and answers it deduped, then raises the mark at 3.
 * Should the job run and be purged first, the purge raised its mark before removing it (see
 * `purge.ts`), so the retry stops at 1: the slot lands once whatever the crash point. The
 * opposite order (mark first) would lose the slot to a crash between the writes.
 *
 * One difference from a single atomic change: an enqueue to a LOWER value racing one to a higher
 * value may still land its own job (it read the mark before the higher one rose); its mark write
 * then changes nothing. It never makes a second job for one id.
 */
export async function enqueueAdvancing(
  context: NatsContext,
  marks: MarkStore,
  request: ScreenedEnqueue,
  mark: MarkAdvance,
): Promise<EnqueueResult | MarkPassed> {
  const current = await marks.get(mark.name);
  if (current !== undefined && current >= mark.value) return { markPassed: true };
  await context.hooks.beforeMarkedEnqueue?.();
  // A refusal (JOB_DUPLICATE, an id of another tenant) throws here and raises no mark.
  const result = await enqueueOne(context, request);
  // False when a racing writer of the slot raised it first, or a higher value stands.
  await marks.advance(mark.name, mark.value);
  return result;
}
