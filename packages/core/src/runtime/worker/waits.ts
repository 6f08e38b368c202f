import type { Clock } from '../../clock.js';
import { sleepFor } from '../timers.js';

/** Resolves once a collection is empty, checked whenever `changed` is called. */
export class Emptying {
  private waiters: (() => void)[] = [];
  constructor(private readonly size: () => number) {}
  wait(): Promise<void> {
    if (this.size() === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  changed(): void {
    if (this.size() !== 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

/**
 * Waits for `done` until the instant `deadline` on the clock, whichever comes first; answers
 * whether `done` came first. A past deadline waits for nothing. A `done` that never settles (a
 * driver call that hangs) is left behind.
 */
export async function until(
  clock: Clock,
  done: Promise<unknown>,
  deadline: number,
): Promise<boolean> {
  const ms = deadline - clock.now();
  if (ms <= 0) return false;
  const timer = new AbortController();
  const finished = await Promise.race([
    done.then(
      () => true,
      () => true,
    ),
    sleepFor(clock, ms, timer.signal).then(
      () => false,
      () => false,
    ),
  ]);
  timer.abort();
  return finished;
}
