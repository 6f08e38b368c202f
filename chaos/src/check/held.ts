import type { LedgerEvent } from '../ledger/events.ts';

/**
 * The jobs process `pid` still held at instant `at` (`events` in time order), each with the
 * claim it ran under: attempts it started and had not ended by then, nor lost (`lease-lost`),
 * nor seen superseded (another process started a later claim of the job). An attempt aborted on
 * a lost lease may run on for seconds (its steps ignore the signal; a write out when the server
 * crashed hangs until it times out) while its job is already another's: waiting for someone to
 * take that job over after `at` measures nothing, or a later, unrelated take-over.
 */
export function heldAt(
  events: readonly LedgerEvent[],
  pid: number,
  at: number,
): Map<string, number> {
  const held = new Map<string, number>();
  for (const event of events) {
    if (event.t > at) break;
    const claim = held.get(event.job);
    if (event.pid === pid) {
      if (event.ev === 'start') held.set(event.job, event.claim);
      else if ((event.ev === 'end' || event.ev === 'lease-lost') && event.claim === claim) {
        held.delete(event.job);
      }
    } else if (event.ev === 'start' && claim !== undefined && event.claim > claim) {
      held.delete(event.job);
    }
  }
  return held;
}

/** The first start, after `at`, of a later claim of `job` than `claim`, by another process. */
export function takenOver(
  events: readonly LedgerEvent[],
  pid: number,
  at: number,
  job: string,
  claim: number,
): LedgerEvent | undefined {
  return events.find(
    (event) =>
      event.ev === 'start' &&
      event.job === job &&
      event.pid !== pid &&
      event.t > at &&
      event.claim > claim,
  );
}
