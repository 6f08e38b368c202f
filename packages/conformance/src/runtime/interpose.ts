import type { Driver, EnqueueRequest, MarkedEnqueueRequest } from '@berth/core';

/**
 * Runs before a wrapped call (or, as `after`, once it answered): a scenario holds it there (a
 * slow backend) or throws (a crash; after, one that loses the answer of a change that landed).
 */
export type Interpose = (call: string) => Promise<void> | void;

// The calls a scheduler makes: enqueue, get, and the marks' and leases' calls.
const WRAPPED = new Set(['enqueue', 'get', 'advance', 'acquire', 'renew', 'release']);

const wrap = <T extends object>(
  target: T,
  prefix: string,
  before: Interpose,
  after: Interpose,
): T =>
  new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (prefix === '' && (key === 'marks' || key === 'leases')) {
        return wrap(value as object, `${key}.`, before, after);
      }
      if (typeof value !== 'function') return value;
      if (typeof key !== 'string' || !WRAPPED.has(key)) return value.bind(object);
      return async (...args: unknown[]) => {
        await before(`${prefix}${key}`);
        const answer: unknown = await Reflect.apply(value, object, args);
        await after(`${prefix}${key}`);
        return answer;
      };
    },
  });

/**
 * `driver` with `before` awaited ahead of each call a scheduler makes (`enqueue`, `marks.get`…),
 * and `after` once it answered.
 */
export const interposed = (
  driver: Driver,
  before: Interpose,
  after: Interpose = () => {},
): Driver => wrap(driver, '', before, after);

/**
 * `driver`, counting the jobs each enqueue made (a deduped answer makes none), by job id: a slot
 * enqueued twice shows 2 even when its first job was purged in between.
 */
export function countingCreations(driver: Driver): {
  driver: Driver;
  created: Map<string, number>;
} {
  const created = new Map<string, number>();
  const counting = new Proxy(driver, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (key !== 'enqueue') return typeof value === 'function' ? value.bind(object) : value;
      return async (request: EnqueueRequest | MarkedEnqueueRequest) => {
        const answer = await object.enqueue(request as MarkedEnqueueRequest);
        // A `markPassed` answer, like a deduped one, made no job.
        if ('id' in answer && !answer.deduped) {
          created.set(answer.id, (created.get(answer.id) ?? 0) + 1);
        }
        return answer;
      };
    },
  });
  return { driver: counting, created };
}

/** A promise a scenario opens by hand: where a held driver call waits. */
export function heldCall(): { wait: Promise<void>; open: () => void } {
  let open = (): void => {};
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}
