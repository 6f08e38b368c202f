import type { Fleet, Member } from '../fleet.ts';
import { at, between, sleepUnless } from './timeline.ts';

const pick = <T>(items: readonly T[]): T | undefined =>
  items[Math.floor(Math.random() * items.length)];

/** SIGKILL of a random (running, not stalled) worker every few seconds; a replacement starts. */
export async function killWorkers(input: {
  readonly fleet: Fleet;
  readonly start: number;
  readonly everyMs: readonly [number, number];
  readonly untilMs: number;
  readonly signal: AbortSignal;
}): Promise<void> {
  const { fleet, signal } = input;
  await sleepUnless(between(input.everyMs), signal);
  while (!signal.aborted && Date.now() < input.start + input.untilMs) {
    const victim = pick(fleet.alive().filter((member) => !member.stopped));
    if (victim !== undefined) void fleet.kill(victim);
    await sleepUnless(between(input.everyMs), signal);
  }
}

/** SIGSTOP of a worker past its lease, then SIGCONT: it wakes up as a zombie. */
export async function zombies(input: {
  readonly fleet: Fleet;
  readonly start: number;
  readonly atMs: readonly number[];
  readonly stallMs: number;
  readonly signal: AbortSignal;
  /** Picks the victim; none yet → looks again shortly, for up to 15 s. */
  readonly choose?: (alive: readonly Member[]) => Member | undefined;
}): Promise<void> {
  const choose = input.choose ?? ((alive) => pick(alive));
  for (const atMs of input.atMs) {
    await at(input.start, atMs, input.signal, async () => {
      const deadline = Date.now() + 15_000;
      while (!input.signal.aborted && Date.now() < deadline) {
        const victim = choose(input.fleet.alive().filter((member) => !member.stopped));
        if (victim !== undefined) return input.fleet.stall(victim, input.stallMs);
        await sleepUnless(20, input.signal);
      }
    });
  }
}

/** SIGKILL of the scheduler that leads, at each instant; a replacement starts. */
export async function killLeaders(input: {
  readonly fleet: Fleet;
  readonly start: number;
  readonly atMs: readonly number[];
  readonly signal: AbortSignal;
}): Promise<void> {
  await onLeader(input, async (leader) => {
    await input.fleet.kill(leader);
  });
}

async function onLeader(
  input: {
    readonly fleet: Fleet;
    readonly start: number;
    readonly atMs: readonly number[];
    readonly signal: AbortSignal;
  },
  act: (member: Member) => Promise<void>,
): Promise<void> {
  for (const atMs of input.atMs) {
    await at(input.start, atMs, input.signal, async () => {
      const deadline = Date.now() + 5_000;
      while (!input.signal.aborted && Date.now() < deadline) {
        const leader = input.fleet.alive().find((member) => member.leader);
        if (leader !== undefined) return act(leader);
        await sleepUnless(20, input.signal);
      }
    });
  }
}
