import type { LedgerEvent } from '../ledger/events.ts';
import type { Partition } from '../nemesis/partition.ts';
import { heldAt, takenOver } from './held.ts';

/** What one cut did, read from the ledger. Losses and double completions are counted per job. */
export interface PartitionFindings {
  /** From the cut to the heal. */
  readonly cutMs: number;
  /** A connection from the island failed to open while cut: the cut acted on the network. */
  readonly blocked: boolean;
  /** From the heal until a connection from the island opened again. */
  readonly reachableAfterMs: number | undefined;
  /** Jobs the cut-off worker was running at the cut, and still held (see `heldAt`). */
  readonly held: number;
  /** Of those, how many another process started after the cut (before the heal or after). */
  readonly reclaimed: number;
  /** ms from the cut until the last of those re-claimed started elsewhere (the longest wait). */
  readonly reclaimMs: number | undefined;
  /** Step outputs and completions the cut-off worker saw acknowledged inside the window. */
  readonly ackedInside: number;
  /** Its step writes refused (LEASE_LOST) from the cut on: its late writes, fenced. */
  readonly refused: number;
  /** Its attempts aborted on a lost lease from the cut on (by its own clock or the fence). */
  readonly leaseLost: number;
  /**
   * Held jobs whose handler ended well just after the cut (a step's answer already on the
   * island's socket) and whose ack never landed: taken over elsewhere, the fence refused it, or
   * the worker gave the settle up when its lease ran out. A worker caught that way loses no
   * lease and has no step write refused, and emits nothing (core README, Settle).
   */
  readonly unlanded: number;
  /** What the held attempts did after the cut, in words: for a reader of a failed run. */
  readonly heldAfter: string;
}

/** A response already read off the socket when the cut came may still be handled just after it. */
const IN_FLIGHT_MS = 100;

export function checkPartitions(
  partitions: readonly Partition[],
  events: readonly LedgerEvent[],
): PartitionFindings[] {
  return partitions.map((partition, index) => {
    const next = partitions[index + 1]?.cut ?? Number.POSITIVE_INFINITY;
    const own = events.filter((event) => event.pid === partition.pid);
    const open = heldAt(events, partition.pid, partition.cut);
    const after = own.filter((event) => event.t > partition.cut && event.t < next);
    let reclaimed = 0;
    let reclaimMs: number | undefined;
    let unlanded = 0;
    for (const [job, claim] of open) {
      const elsewhere = takenOver(events, partition.pid, partition.cut, job, claim);
      if (elsewhere === undefined) continue;
      reclaimed++;
      reclaimMs = Math.max(reclaimMs ?? 0, elsewhere.t - partition.cut);
      const mine = (event: LedgerEvent) => event.job === job && event.claim === claim;
      const endedWell = after.some((event) => mine(event) && event.ev === 'end' && event.ok);
      const acked = own.some((event) => mine(event) && event.ev === 'completed');
      if (endedWell && !acked) unlanded++;
    }
    return {
      cutMs: partition.healed - partition.cut,
      blocked: partition.blocked,
      reachableAfterMs:
        partition.reachable === undefined ? undefined : partition.reachable - partition.healed,
      held: open.size,
      reclaimed,
      reclaimMs,
      ackedInside: after.filter(
        (event) =>
          (event.ev === 'step-got' || event.ev === 'completed') &&
          event.t > partition.cut + IN_FLIGHT_MS &&
          event.t < partition.healed,
      ).length,
      refused: after.filter((event) => event.ev === 'refused').length,
      leaseLost: after.filter((event) => event.ev === 'lease-lost').length,
      unlanded,
      heldAfter: describeHeld(open, after, partition.cut),
    };
  });
}

/**
 * What each attempt held at the cut recorded first after it, counted by kind with the earliest
 * instant: `4 ended ok (+3 ms), 4 lease-lost (+512 ms)`, or `nothing`.
 */
function describeHeld(
  open: ReadonlyMap<string, number>,
  after: readonly LedgerEvent[],
  cut: number,
): string {
  const kinds = new Map<string, { count: number; firstMs: number }>();
  for (const [job, claim] of open) {
    const first = after.find(
      (event) => event.job === job && event.claim === claim && event.ev !== 'step-run',
    );
    const kind =
      first === undefined
        ? 'recorded nothing'
        : first.ev === 'end'
          ? first.ok
            ? 'ended ok'
            : `ended ${first.error ?? 'with an error'}`
          : first.ev;
    const seen = kinds.get(kind) ?? { count: 0, firstMs: Number.POSITIVE_INFINITY };
    seen.count++;
    if (first !== undefined) seen.firstMs = Math.min(seen.firstMs, first.t - cut);
    kinds.set(kind, seen);
  }
  if (kinds.size === 0) return 'nothing';
  return [...kinds]
    .map(([kind, { count, firstMs }]) =>
      Number.isFinite(firstMs)
        ? `${count} ${kind} (+${Math.round(firstMs)} ms)`
        : `${count} ${kind}`,
    )
    .join(', ');
}

/**
 * Why a run's cuts prove nothing, in words (empty: they acted). Each cut must have blocked the
 * island's connections and healed; a cut longer than two leases must have caught the worker
 * running jobs, seen others take them over, and its worker's attempts ended, writes refused or
 * acks kept from landing.
 */
export function partitionsIdle(
  findings: readonly PartitionFindings[],
  windows: readonly { readonly ms: number }[],
  leaseMs: number,
): string[] {
  if (findings.length !== windows.length) {
    return [`${findings.length} of ${windows.length} cuts happened`];
  }
  return findings.flatMap((cut, index) => {
    const why: string[] = [];
    const name = `cut ${index + 1} (${Math.round(cut.cutMs)} ms)`;
    if (!cut.blocked) why.push(`${name}: the island still reached the server`);
    if (cut.reachableAfterMs === undefined) why.push(`${name}: the island never reached it again`);
    if ((windows[index]?.ms ?? 0) > 2 * leaseMs) {
      if (cut.reclaimed === 0) why.push(`${name}: none of its ${cut.held} jobs was re-claimed`);
      if (cut.refused + cut.leaseLost + cut.unlanded === 0) {
        why.push(
          `${name}: the cut-off worker neither lost a lease, had a write refused, nor had an ack not land (its held attempts after the cut: ${cut.heldAfter})`,
        );
      }
    }
    return why;
  });
}
