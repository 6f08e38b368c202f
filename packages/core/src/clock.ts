/** Where every instant comes from: epoch milliseconds. Drivers pass `now()` into each statement. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = Object.freeze({ now: () => Date.now() });

/** A clock that moves only when told to. Timers scheduled through it fire as it moves. */
export interface ManualClock extends Clock {
  /** Moves time forward by `ms` (>= 0) and fires every timer now due, in due order. */
  advance(ms: number): Promise<void>;
  /** Moves time to `at` (never backwards) and fires every timer now due. */
  set(at: number): Promise<void>;
  /** Calls `fn` once the clock reaches `now() + ms`. Answers a function that cancels it. */
  setTimeout(fn: () => void, ms: number): () => void;
  /** Timers not yet fired. */
  pending(): number;
}

interface Timer {
  readonly at: number;
  readonly order: number;
  readonly fn: () => void;
}

/** A {@link ManualClock} starting at `start` (default 2026-01-01T00:00:00Z). */
export function createManualClock(start = Date.UTC(2026, 0, 1)): ManualClock {
  if (!Number.isFinite(start)) throw new TypeError('createManualClock: start must be finite');
  let current = start;
  let order = 0;
  const timers = new Set<Timer>();

  const fireDue = async (): Promise<void> => {
    for (;;) {
      let next: Timer | undefined;
      for (const timer of timers) {
        if (timer.at > current) continue;
        if (
          next === undefined ||
          timer.at < next.at ||
          (timer.at === next.at && timer.order < next.order)
        ) {
          next = timer;
        }
      }
      if (next === undefined) return;
      timers.delete(next);
      next.fn();
      // Let the work a timer started run before the next one fires.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };

  const moveTo = async (at: number): Promise<void> => {
    if (!Number.isFinite(at)) throw new TypeError('ManualClock: instant must be finite');
    if (at > current) current = at;
    await fireDue();
  };

  return {
    now: () => current,
    advance: (ms) => {
      if (!(ms >= 0)) return Promise.reject(new TypeError('ManualClock.advance: ms must be >= 0'));
      return moveTo(current + ms);
    },
    set: moveTo,
    setTimeout(fn, ms) {
      const timer: Timer = { at: current + Math.max(0, ms), order: order++, fn };
      timers.add(timer);
      return () => {
        timers.delete(timer);
      };
    },
    pending: () => timers.size,
  };
}
