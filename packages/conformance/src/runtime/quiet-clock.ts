import type { Clock, ManualClock } from '@berth/core';
import type { CaseContext } from '../kit.js';

/** How long a move of the clock waits for the driver calls in flight before it names them. */
const QUIET_WITHIN_MS = 15_000;

/** Counts the driver calls that have not answered yet, by name. */
class InFlight {
  private readonly calls = new Map<string, number>();
  private count = 0;

  track<T>(name: string, call: () => T): T {
    this.calls.set(name, (this.calls.get(name) ?? 0) + 1);
    this.count += 1;
    let answer: T;
    try {
      answer = call();
    } catch (error) {
      this.done(name);
      throw error;
    }
    if (answer instanceof Promise) {
      return answer.finally(() => this.done(name)) as T;
    }
    this.done(name);
    return answer;
  }

  get quiet(): boolean {
    return this.count === 0;
  }

  names(): string[] {
    return [...this.calls].filter(([, open]) => open > 0).map(([name, open]) => `${name} ×${open}`);
  }

  private done(name: string): void {
    this.calls.set(name, (this.calls.get(name) ?? 1) - 1);
    this.count -= 1;
  }
}

/** `target` with every method, also of its stores (`steps`, `leases`…), counted in `inFlight`. */
function counted<T extends object>(target: T, inFlight: InFlight, path: string): T {
  const made = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (property === 'clock' || typeof property === 'symbol') return value;
      if (made.has(property)) return made.get(property);
      const name = `${path}${String(property)}`;
      let wrapped: unknown = value;
      if (typeof value === 'function') {
        wrapped = (...args: unknown[]) =>
          inFlight.track(name, () => Reflect.apply(value, object, args));
      } else if (typeof value === 'object' && value !== null) {
        wrapped = counted(value, inFlight, `${name}.`);
      }
      made.set(property, wrapped);
      return wrapped;
    },
  });
}

/**
 * The runtime scenarios' context with a clock that moves only once every driver call in flight
 * has answered. The kit clock is manual: a move that lands while a worker's renewal or hand-back
 * is still on its way to a slow (loaded) server lets a lease lapse in kit time that a worker on
 * any real clock would have renewed, and the transcript would then depend on the machine's load.
 * Handlers and timers still run between moves, as before; only the backend's latency no longer
 * counts as kit time.
 */
export function quietContext(context: CaseContext): CaseContext {
  const inFlight = new InFlight();
  const raw = context.clock;
  const whenQuiet = async (): Promise<void> => {
    const since = Date.now();
    while (!inFlight.quiet) {
      if (Date.now() - since > QUIET_WITHIN_MS) {
        throw new Error(
          `runtime scenario: driver calls still unanswered after ${QUIET_WITHIN_MS} ms: ${inFlight.names().join(', ')}`,
        );
      }
      await new Promise<void>((resolve) => setTimeout(resolve, 1));
    }
  };
  const clock: ManualClock = {
    now: () => raw.now(),
    setTimeout: (fn, ms) => raw.setTimeout(fn, ms),
    pending: () => raw.pending(),
    async advance(ms) {
      await whenQuiet();
      await raw.advance(ms);
    },
    async set(at) {
      await whenQuiet();
      await raw.set(at);
    },
  };
  return {
    ...context,
    clock,
    driver: counted(context.driver, inFlight, ''),
    sibling: async (siblingClock?: Clock) =>
      counted(await context.sibling(siblingClock ?? raw), inFlight, 'sibling.'),
  };
}
