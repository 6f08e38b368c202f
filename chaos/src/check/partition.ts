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
    let reclaimed = 0;
    let reclaimMs: number | undefined;
    for (const [job, claim] of open) {
      const elsewhere = takenOver(events, partition.pid, partition.cut, job, claim);
      if (elsewhere === undefined) continue;
      reclaimed++;
      reclaimMs = Math.max(reclaimMs ?? 0, elsewhere.t - partition.cut);
    }
    const after = own.filter((event) => event.t > partition.cut && event.t < next);
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
    };
  });
}

/**
 * Why a run's cuts prove nothing, in words (empty: they acted). Each cut must have blocked the
 * island's connections and healed; a cut longer than two leases must have caught the worker
 * running jobs, seen others take them over, and its worker's attempts ended or writes refused.
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
      if (cut.refused + cut.leaseLost === 0) {
        why.push(`${name}: the cut-off worker neither lost a lease nor had a write refused`);
      }
    }
    return why;
  });
}
