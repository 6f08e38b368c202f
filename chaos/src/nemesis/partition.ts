import { STEPS_JOB } from '../child/jobs.ts';
import type { Fleet, Member } from '../fleet.ts';
import { now } from '../ledger/events.ts';
import type { Island } from '../net/netns.ts';
import type { Exclusive } from './exclusive.ts';
import { at, sleepUnless } from './timeline.ts';

/** A cut of the island from the servers: `atMs` into the run, for `ms`. */
export interface PartitionWindow {
  readonly atMs: number;
  readonly ms: number;
}

/** One cut as it happened: whom it cut off, when, and what the probes from the island found. */
export interface Partition {
  readonly pid: number;
  readonly cut: number;
  readonly healed: number;
  /** A TCP connection from the island to the server failed to open while cut. */
  readonly blocked: boolean;
  /** When a connection from the island opened again after the heal (undefined: never, in 10 s). */
  readonly reachable: number | undefined;
}

const PROBE_MS = 300;
const REACH_AGAIN_MS = 10_000;
const PREFER_TWO_MS = 3_000;
/** Cuts one window may take back because the worker's jobs ended before the link was down. */
const CUT_TRIES = 5;

/**
 * Cuts the island's worker off from the server at each window, while it runs a job, and heals the
 * cut after the window; every other process carries on. A cut shorter than the lease must cost
 * nothing but a delay; a longer one leaves the worker's jobs to others (their leases lapse), and
 * every write it tries once it is back must be refused.
 */
export async function partitionIsland(input: {
  readonly fleet: Fleet;
  readonly island: Island;
  /** The server's port, for the probes. */
  readonly port: number;
  readonly start: number;
  readonly windows: readonly PartitionWindow[];
  readonly signal: AbortSignal;
  readonly partitions: Partition[];
  /** Shared with the server crash: while the server is down a cut would show nothing. */
  readonly exclusive: Exclusive;
}): Promise<void> {
  const { island, signal } = input;
  // A worker back from a cut may take seconds more to be heard (its TCP retransmissions back
  // off): the next cut waits until it took a job up since, or it would catch nothing new.
  let since = 0;
  for (const window of input.windows) {
    await at(input.start, window.atMs, signal, () =>
      input.exclusive.run(async () => {
        // Two jobs at once if it comes to that soon: one may end between the look and the cut.
        const busy = (jobs: number) =>
          input.fleet
            .alive()
            .find(
              (member) =>
                (member.holding.get(STEPS_JOB) ?? 0) >= jobs &&
                member.heldAt > since &&
                !member.stopped,
            );
        const looked = Date.now();
        const enough = () => (Date.now() < looked + PREFER_TWO_MS ? 2 : 1);
        let member: Member | undefined;
        let cut = now();
        for (let tries = 1; ; tries += 1) {
          while (!signal.aborted && busy(enough()) === undefined && Date.now() < looked + 15_000) {
            await sleepUnless(10, signal);
          }
          member = busy(1);
          if (member === undefined) return;
          await island.cut();
          cut = now();
          // Its jobs may all have ended while `ip` ran (slow under load): a cut that caught none
          // would prove nothing, so the link goes up again and the cut waits for a job taken up since.
          if ((member.holding.get(STEPS_JOB) ?? 0) > 0 || tries >= CUT_TRIES) break;
          await island.heal();
          since = now();
        }
        // The window runs from the moment the link is down to the moment it goes up again.
        let healed: number;
        let blocked: boolean;
        try {
          // Probed while the window runs: starting a process in the namespace takes a while.
          const probe = island.reaches(input.port, PROBE_MS);
          await sleepUnless(cut + window.ms - now(), signal);
          blocked = !(await probe);
        } finally {
          healed = now();
          await island.heal();
        }
        let reachable: number | undefined;
        while (reachable === undefined && now() < healed + REACH_AGAIN_MS) {
          if (await island.reaches(input.port, PROBE_MS)) reachable = now();
        }
        input.partitions.push({ pid: member.pid, cut, healed, blocked, reachable });
        since = reachable ?? healed;
      }),
    );
  }
}
