interface Waiter {
  readonly target: number;
  readonly resolve: () => void;
}

/**
 * Longest a wait may see no progress before it gives up: the shared servers are restarted now and
 * then by other work on the machine (a restarted Redis has lost the run's jobs), and a run that
 * can no longer finish should say so instead of waiting out the run's timeout.
 */
export const STALL_MS = 60_000;

const stalled = (what: string) =>
  new Error(`no progress for ${STALL_MS / 1_000} s ${what} (was a server restarted?)`);

/** A counter that answers when it reaches a target: how a runner knows `total` jobs settled. */
export class Counter {
  private count = 0;
  private changedAt = Date.now();
  private waiters: Waiter[] = [];

  get value(): number {
    return this.count;
  }

  add(amount = 1): void {
    this.count += amount;
    this.changedAt = Date.now();
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (this.count >= waiter.target) waiter.resolve();
      else still.push(waiter);
    }
    this.waiters = still;
  }

  /** Resolves at `target`; rejects when the count stood still for STALL_MS. */
  reach(target: number): Promise<void> {
    if (this.count >= target) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const watch = setInterval(() => {
        if (Date.now() - this.changedAt < STALL_MS) return;
        clearInterval(watch);
        reject(stalled(`at ${this.count} of ${target}`));
      }, 1_000);
      this.waiters.push({
        target,
        resolve: () => {
          clearInterval(watch);
          resolve();
        },
      });
    });
  }
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** Asks `check` every `intervalMs` until it answers true; gives up after STALL_MS. */
export async function pollUntil(check: () => Promise<boolean>, intervalMs = 2): Promise<void> {
  const deadline = Date.now() + STALL_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw stalled('waiting for the last settles');
    await sleep(intervalMs);
  }
}
