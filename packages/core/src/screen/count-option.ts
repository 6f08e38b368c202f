import { configInvalid } from '../errors/refusals.js';

/**
 * An optional setting that must be a whole number from 1 to `max`: answers it (undefined when
 * not given), or throws CONFIG_INVALID naming it, with `example` in the fix.
 */
export function screenCountOption(
  option: string,
  value: unknown,
  max: number,
  example: string,
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw configInvalid({ option, reason: `must be a whole number from 1 to ${max}`, example });
  }
  return value;
}
