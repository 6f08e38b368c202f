import type { Driver } from '../../src/index.js';

/** A call the wrapper can hold or fail: `enqueue`, `get`, `marks.advance`, `leases.renew`… */
export type Interpose = (call: string, args: readonly unknown[]) => Promise<void> | void;

const WRAPPED = new Set(['enqueue', 'get', 'advance', 'acquire', 'renew', 'release']);

const wrap = <T extends object>(target: T, prefix: string, before: Interpose): T =>
  new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (prefix === '' && (key === 'marks' || key === 'leases')) {
        return wrap(value as object, `${key}.`, before);
      }
      if (typeof value !== 'function' || typeof key !== 'string' || !WRAPPED.has(key)) {
        return typeof value === 'function' ? value.bind(object) : value;
      }
      return async (...args: unknown[]) => {
        await before(`${prefix}${key}`, args);
        return Reflect.apply(value, object, args);
      };
    },
  });

/**
 * `driver` with `before` awaited ahead of each scheduler-relevant call (enqueue, get, the
 * marks' and leases' calls): a test holds one there (a slow backend) or throws (a crash).
 */
export const interposed = (driver: Driver, before: Interpose): Driver => wrap(driver, '', before);
