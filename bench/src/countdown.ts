interface Waiter {
  readonly target: number;
  readonly resolve: () => void;
}

/** A counter that answers when it reaches a target: how a runner knows `total` jobs settled. */
export class Counter {
  private count = 0;
  private waiters: Waiter[] = [];

  get value(): number {
    return this.count;
  }

  add(amount = 1): void {
    this.count += amount;
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (this.count >= waiter.target) waiter.resolve();
      else still.push(waiter);
    }
    this.waiters = still;
  }

  reach(target: number): Promise<void> {
    if (this.count >= target) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ target, resolve }));
  }
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** Asks `check` every `intervalMs` until it answers true. */
export async function pollUntil(check: () => Promise<boolean>, intervalMs = 2): Promise<void> {
  while (!(await check())) await sleep(intervalMs);
}
