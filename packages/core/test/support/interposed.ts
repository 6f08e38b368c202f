import type { Driver } from '../../src/index.js';

/** A call the wrapper can hold or fail: `enqueue`, `get`, `marks.advance`, `leases.renew`… */
export type Interpose = (call: string, args: readonly unknown[]) => Promise<void> | void;

const WRAPPED = new Set(['enqueue', 'get', 'advance', 'acquire', 'renew', 'release']);

/** Runs once a wrapped call answered: a test throws here to lose the answer of a landed call. */
export type Afterward = (call: string) => Promise<void> | void;

const wrap = <T extends object>(
  target: T,
  prefix: string,
  before: Interpose,
  after: Afterward,
): T =>
  new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (prefix === '' && (key === 'marks' || key === 'leases')) {
        return wrap(value as object, `${key}.`, before, after);
      }
      if (typeof value !== 'function' || typeof key !== 'string' || !WRAPPED.has(key)) {
        return typeof value === 'function' ? value.bind(object) : value;
      }
      return async (...args: unknown[]) => {
        await before(`${prefix}${key}`, args);
        const answer: unknown = await Reflect.apply(value, object, args);
        await after(`${prefix}${key}`);
        return answer;
      };
    },
  });

/**
 * `driver` with `before` awaited ahead of each scheduler-relevant call (enqueue, get, the
 * marks' and leases' calls): a test holds one there (a slow backend) or throws (a crash); and
 * `after` once it answered (a crash, or a lost connection, after the change landed).
 */
export const interposed = (
  driver: Driver,
  before: Interpose,
  after: Afterward = () => {},
): Driver => wrap(driver, '', before, after);
