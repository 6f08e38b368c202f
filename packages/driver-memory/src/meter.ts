import type { Driver } from '@berth/core/driver';

/**
 * How many rows the store examined (a compare, a step of a walk): the driver's own tests prove a
 * call's work is bounded in the backlog by counting, never by timing. Not exported by the package.
 */
export interface Meter {
  visits: number;
}

const meters = new WeakMap<Driver, Meter>();

export function registerMeter(driver: Driver, meter: Meter): void {
  meters.set(driver, meter);
}

/** The meter of a driver made by `createMemoryDriver`. */
export function meterOf(driver: Driver): Meter {
  const meter = meters.get(driver);
  if (meter === undefined) throw new Error('meterOf: not a memory driver');
  return meter;
}
