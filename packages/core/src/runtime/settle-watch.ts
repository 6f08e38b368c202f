import type { Driver, Unsubscribe } from '../contract/driver.js';
import { announceJobSettled } from './settle-hub.js';

/**
 * How long a driver's settle watch stays open after its last wait ended, ms: an app that waits
 * for one job after another (`enqueueAndWait` in a loop) keeps one subscription, not one each.
 */
export const SETTLE_WATCH_LINGER_MS = 10_000;

/** One driver's settle subscription and the waits holding it. */
class Watch {
  waits = 0;
  unsubscribe: Unsubscribe | undefined;
  linger: NodeJS.Timeout | undefined;
  /** Resolves once the watch listens (true) or could not (false: waits then only poll). */
  readonly live: Promise<boolean>;

  constructor(driver: Driver, watchSettles: NonNullable<Driver['watchSettles']>) {
    this.live = watchSettles((jobIds) => {
      for (const id of jobIds) announceJobSettled(driver, id);
    }).then(
      (unsubscribe) => {
        this.unsubscribe = unsubscribe;
        // Every wait ended while the subscription was being made.
        if (this.waits === 0) release(driver, this);
        return true;
      },
      () => {
        // A hint only: the waits poll, and the next wait tries to watch again.
        if (watches.get(driver) === this) watches.delete(driver);
        return false;
      },
    );
  }
}

// One subscription per driver object, shared by every result wait of this process on it.
const watches = new WeakMap<Driver, Watch>();

function release(driver: Driver, watch: Watch): void {
  if (watch.linger !== undefined || watch.unsubscribe === undefined) return;
  watch.linger = setTimeout(() => {
    watch.linger = undefined;
    if (watch.waits > 0) return;
    watches.delete(driver);
    // A driver closed meanwhile refuses the call: its close released the subscription already.
    watch.unsubscribe?.().catch(() => undefined);
  }, SETTLE_WATCH_LINGER_MS);
  // A lingering watch never holds the process open.
  watch.linger.unref();
}

/**
 * Makes `driver`'s settle notices (`watchSettles`, when the driver has it) reach this process's
 * settle hub for as long as the answer's `release` is not called: a result wait calls it before
 * its first look at the job, so a settle after that look is heard. `live` says whether notices
 * flow; without them (no `watchSettles`, or it failed) the wait only polls.
 */
export async function retainSettleWatch(
  driver: Driver,
): Promise<{ readonly live: boolean; readonly release: () => void }> {
  const { watchSettles } = driver;
  if (watchSettles === undefined) return { live: false, release: () => {} };
  let watch = watches.get(driver);
  if (watch === undefined) {
    watch = new Watch(driver, watchSettles);
    watches.set(driver, watch);
  }
  const held = watch;
  held.waits += 1;
  if (held.linger !== undefined) {
    clearTimeout(held.linger);
    held.linger = undefined;
  }
  let released = false;
  return {
    live: await held.live,
    release: () => {
      if (released) return;
      released = true;
      held.waits -= 1;
      if (held.waits === 0) release(driver, held);
    },
  };
}
