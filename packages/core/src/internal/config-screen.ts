import type { Driver } from '../contract/driver.js';
import { isBerthError } from '../errors/berth-error.js';
import { describeReceived } from '../errors/received.js';
import { configInvalid } from '../errors/refusals.js';

/*
 * The screens of what an app builds with (defineJob, createWorker, createScheduler, ...): each
 * refusal is CONFIG_INVALID naming the option, with a valid call as its example.
 */

/**
 * Runs a builder's reading of its arguments so that only BerthErrors leave it: an argument
 * that throws while read (a throwing getter, a Proxy's trap) is CONFIG_INVALID naming it, with
 * what it threw as the cause, never a raw error.
 */
export function configuring<T>(argument: string, example: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (isBerthError(error)) throw error;
    throw configInvalid({
      option: argument,
      reason: 'could not be read: reading it threw',
      allowed: 'must be a plain object whose fields can be read',
      example,
      cause: error,
    });
  }
}

/** `value` as an object of options (not null, not an array); `option` names it otherwise. */
export function configObject(
  option: string,
  value: unknown,
  example: string,
): Record<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return value as Record<string, unknown>;
  }
  throw configInvalid({
    option,
    reason: `is ${describeReceived(value)}; it must be an object`,
    allowed: 'must be an object',
    example,
  });
}

/** `value` as an array; `option` names it otherwise. */
export function configArray(option: string, value: unknown, example: string): readonly unknown[] {
  if (Array.isArray(value)) return value;
  throw configInvalid({
    option,
    reason: `is ${describeReceived(value)}; it must be an array`,
    allowed: 'must be an array',
    example,
  });
}

/** `value` as a Driver: an object with the contract's calls and a clock. */
export function configDriver(value: unknown, example: string): Driver {
  const driver = value as Partial<Driver> | null | undefined;
  if (
    typeof driver?.claim === 'function' &&
    typeof driver.get === 'function' &&
    typeof driver.clock?.now === 'function'
  ) {
    return value as Driver;
  }
  throw configInvalid({
    option: 'driver',
    reason: `is ${describeReceived(value)}, not a Driver`,
    allowed: 'must be a Driver (createMemoryDriver(), createPgDriver(...))',
    example,
  });
}

/** A logger given as `logger`: an object with each of `methods` a function, or absent. */
export function configLogger<T>(value: T, methods: readonly string[], example: string): T {
  if (value === undefined) return value;
  const logger = value as Record<string, unknown> | null;
  if (
    logger !== null &&
    typeof logger === 'object' &&
    methods.every((method) => typeof logger[method] === 'function')
  ) {
    return value;
  }
  throw configInvalid({
    option: 'logger',
    reason: `is ${describeReceived(value)}; it must have the methods ${methods.join(', ')}`,
    allowed: `must be an object with the methods ${methods.join(', ')} (pino, console)`,
    example,
  });
}
