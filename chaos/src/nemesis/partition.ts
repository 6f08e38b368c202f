import type { Fleet } from '../fleet.ts';
import type { LedgerEvent } from '../ledger/events.ts';
import { now } from '../ledger/events.ts';
import type { Island } from '../net/netns.ts';
import type { Exclusive } from './exclusive.ts';
import { awaitTakeOver } from './take-over.ts';
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
/** How long the nemesis waits for the island's worker to reach a step, its gate held. */
const PARK_WAIT_MS = 15_000;
/** Cuts one window may take back because they caught only attempts already lost. */
const CUT_TRIES = 5;
/** How often a cut waiting for its take-over reads the ledger. */
const TAKE_OVER_POLL_MS = 200;

/**
 * A cut past the lease lasts until its jobs were taken over elsewhere: at least its window, and
 * beyond it until every job the cut-off worker held was started by another process (at most
 * `capMs` more; what is still not taken over then fails the check).
 */
export interface TakeOverWait {
  /** Windows longer than this wait (two leases: a shorter one need not lose a lease). */
  readonly longerThanMs: number;
  readonly capMs: number;
  readonly read: () => Promise<readonly LedgerEvent[]>;
}

/**
 * Cuts the island's worker off from the server at each window, while it runs a job, and heals the
 * cut after the window (a long one: once its jobs were taken over, see `TakeOverWait`); every
 * other process carries on. A cut shorter than the lease must cost
 * nothing but a delay; a longer one leaves the worker's jobs to others (their leases lapse), and
 * every write it tries once it is back must be refused.
 *
 * The worker is caught mid-job by its step gate (child/step-gate.ts): held, its next step to end
 * parks; the link goes down; then the gate lets the parked steps answer, and their writes go out
 * into the cut. A parked step's attempt still live when the gate lets it go was live at the cut.
 * Timing the cut by watching the worker missed its jobs (a round of them takes ~150 ms; the
 * parent hears of one late, and `ip` is slow under load).
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
  readonly takeOver?: TakeOverWait;
}): Promise<void> {
  const { fleet, island, signal } = input;
  for (const window of input.windows) {
    await at(input.start, window.atMs, signal, () =>
      input.exclusive.run(async () => {
        const member = fleet.alive().find((candidate) => !candidate.stopped);
        if (member === undefined) return;
        const deadline = Date.now() + PARK_WAIT_MS;
        let cut = now();
        for (let tries = 1; ; tries += 1) {
          fleet.hold(member);
          while (!signal.aborted && member.parked === 0 && Date.now() < deadline) {
            await sleepUnless(10, signal);
          }
          if (member.parked === 0) {
            await fleet.release(member);
            return;
          }
          let live = 0;
          try {
            await island.cut();
            cut = now();
          } finally {
            live = await fleet.release(member);
          }
          // The parked steps' attempts all lost their leases before the cut (a stalled server
          // or machine): it caught nothing, so the link goes up again and the cut waits anew.
          if (live > 0 || tries >= CUT_TRIES) break;
          await island.heal();
        }
        // The window runs from the moment the link is down to the moment it goes up again.
        let healed: number;
        let blocked: boolean;
        try {
          // Probed while the window runs: starting a process in the namespace takes a while.
          const probe = island.reaches(input.port, PROBE_MS);
          await sleepUnless(cut + window.ms - now(), signal);
          blocked = !(await probe);
          const { takeOver } = input;
          if (takeOver !== undefined && window.ms > takeOver.longerThanMs) {
            await awaitTakeOver({
              ...takeOver,
              pid: member.pid,
              cut,
              pollMs: TAKE_OVER_POLL_MS,
              signal,
            });
          }
        } finally {
          healed = now();
          await island.heal();
        }
        let reachable: number | undefined;
        while (reachable === undefined && now() < healed + REACH_AGAIN_MS) {
          if (await island.reaches(input.port, PROBE_MS)) reachable = now();
        }
        input.partitions.push({ pid: member.pid, cut, healed, blocked, reachable });
      }),
    );
  }
}
