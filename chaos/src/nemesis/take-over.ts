import { heldAt, takenOver } from '../check/held.ts';
import type { LedgerEvent } from '../ledger/events.ts';
import { sleepUnless } from './timeline.ts';

/**
 * How many of the jobs `pid` held at `cut` no other process has started under a later claim yet
 * (0: every one was taken over, or it held none).
 */
export function notTakenOver(events: readonly LedgerEvent[], pid: number, cut: number): number {
  let left = 0;
  for (const [job, claim] of heldAt(events, pid, cut)) {
    if (takenOver(events, pid, cut, job, claim) === undefined) left++;
  }
  return left;
}

/**
 * Waits until every job the cut-off worker held at the cut was started elsewhere, reading the
 * ledger every `pollMs`, for at most `capMs`; answers how many were still not taken over.
 *
 * A take-over needs a live worker with a free slot, and under load the others may all be down
 * at once (killed and still booting, or a zombie): a cut healed on a fixed clock then let the
 * island take its own jobs back, and showed no take-over at all.
 */
export async function awaitTakeOver(input: {
  readonly read: () => Promise<readonly LedgerEvent[]>;
  readonly pid: number;
  readonly cut: number;
  readonly capMs: number;
  readonly pollMs: number;
  readonly signal: AbortSignal;
}): Promise<number> {
  const deadline = Date.now() + input.capMs;
  for (;;) {
    const left = notTakenOver(await input.read(), input.pid, input.cut);
    if (left === 0 || input.signal.aborted || Date.now() >= deadline) return left;
    await sleepUnless(Math.min(input.pollMs, deadline - Date.now()), input.signal);
  }
}
