import type { Driver, EventStore, LeaseStore } from '../../src/index.js';

/** The driver with some calls replaced; `calls` counts every call of the replaced members. */
export function wrapDriver(
  driver: Driver,
  overrides: {
    readonly top?: Partial<
      Record<
        'claim' | 'ackMany' | 'nackMany' | 'suspend' | 'extend' | 'extendMany' | 'progress',
        (...args: never[]) => unknown
      >
    >;
    readonly leases?: Partial<LeaseStore>;
    readonly events?: Partial<EventStore>;
  },
): Driver {
  const events: EventStore = {
    publish: (...args) => driver.events.publish(...args),
    find: (...args) => driver.events.find(...args),
    list: (...args) => driver.events.list(...args),
    purgeExpired: (...args) => driver.events.purgeExpired(...args),
    ...overrides.events,
  };
  const leases: LeaseStore = {
    acquire: (...args) => driver.leases.acquire(...args),
    renew: (...args) => driver.leases.renew(...args),
    release: (...args) => driver.leases.release(...args),
    holder: (...args) => driver.leases.holder(...args),
    acquireSlot: (...args) => driver.leases.acquireSlot(...args),
    renewSlot: (...args) => driver.leases.renewSlot(...args),
    releaseSlot: (...args) => driver.leases.releaseSlot(...args),
    ...overrides.leases,
  };
  return new Proxy(driver, {
    get(target, property, receiver) {
      if (property === 'leases') return leases;
      if (property === 'events') return events;
      const replaced = (overrides.top as Record<PropertyKey, unknown> | undefined)?.[property];
      if (replaced !== undefined) return replaced;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A promise that never settles: a driver call that hangs. */
export const never = <T>(): Promise<T> => new Promise<T>(() => {});
