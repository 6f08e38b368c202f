import { now } from '../ledger/events.ts';
import type { PrimaryPartition } from '../servers/server.ts';
import type { Exclusive } from './exclusive.ts';
import type { Crash } from './server-crash.ts';
import { at } from './timeline.ts';

/**
 * Cuts the primary's side (the primary, a worker and a producer) off from the rest at each
 * instant, for `cutMs`, then heals. Before each cut the server there is made the primary again
 * (an earlier cut left it a replica). The sentinels, all on the other side, promote the replica
 * meanwhile; once healed they turn the old primary into a replica, and what it took during the
 * cut is discarded.
 */
export async function partitionPrimary(input: {
  readonly partition: PrimaryPartition;
  readonly start: number;
  readonly atMs: readonly number[];
  readonly cutMs: number;
  readonly signal: AbortSignal;
  readonly cuts: Crash[];
  readonly exclusive: Exclusive;
}): Promise<void> {
  for (const atMs of input.atMs) {
    await at(input.start, atMs, input.signal, () =>
      input.exclusive.run(async () => {
        await input.partition.prepare();
        const down = now();
        await input.partition.cut();
        try {
          await new Promise((resolve) => setTimeout(resolve, input.cutMs));
        } finally {
          await input.partition.heal();
        }
        input.cuts.push({ down, up: now() });
      }),
    );
  }
}
