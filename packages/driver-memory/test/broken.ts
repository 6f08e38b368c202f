import type { DriverFactory } from '@berth/conformance';
import type { Driver } from '@berth/core';
import { createMemoryDriver } from '../src/index.js';

/** The memory driver as the kit takes it, siblings over the same in-process store included. */
export const memory: DriverFactory = async ({ clock, hooks, lifecycleRetention }) => {
  const driver = createMemoryDriver({ clock, hooks, lifecycleRetention });
  return {
    driver,
    sibling: async (context) => createMemoryDriver({ ...context, sameStoreAs: driver }),
    dispose: () => driver.close(),
  };
};

/**
 * The memory driver with some members replaced: a deliberately broken copy. Its siblings are
 * broken alike and share `state` with it, as the processes of one broken deployment would.
 */
export const brokenWith =
  <S extends object>(
    state: () => S,
    override: (real: Driver, shared: S) => Partial<Driver>,
  ): DriverFactory =>
  async (context) => {
    const made = await memory(context);
    const shared = state();
    const breakIt = (real: Driver): Driver => ({ ...real, ...override(real, shared) });
    const { sibling } = made;
    return {
      driver: breakIt(made.driver),
      ...(sibling === undefined
        ? {}
        : { sibling: async (siblingContext) => breakIt(await sibling(siblingContext)) }),
      dispose: made.dispose,
    };
  };

export const broken = (override: (real: Driver) => Partial<Driver>): DriverFactory =>
  brokenWith(() => ({}), override);
