import type { Driver } from '@berth/core';

/** What a wrapped call does: answer through `call`, or throw, or never answer. */
export type CallPlan = <T>(call: () => Promise<T>, count: number) => Promise<T>;

/**
 * The case's driver with some top-level calls counted and routed through a plan (fail the
 * first, hang from the second, ...); every other member is the driver's own.
 */
export function wrapDriver(
  driver: Driver,
  plans: Readonly<Partial<Record<keyof Driver, CallPlan>>>,
): { driver: Driver; calls: Partial<Record<keyof Driver, number>> } {
  const calls: Partial<Record<keyof Driver, number>> = {};
  const wrapped = new Proxy(driver, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const name = property as keyof Driver;
      const plan = plans[name];
      return (...args: unknown[]) => {
        const count = (calls[name] ?? 0) + 1;
        calls[name] = count;
        const call = () => Promise.resolve(value.apply(target, args));
        return plan === undefined ? value.apply(target, args) : plan(call, count);
      };
    },
  });
  return { driver: wrapped, calls };
}

/** A backend blip: the call's first `times` tries throw without reaching the driver. */
export const failFirst =
  (times: number): CallPlan =>
  (call, count) =>
    count <= times ? Promise.reject(new Error(`blip: call ${count} failed`)) : call();
