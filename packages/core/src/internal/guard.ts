import { isBerthError } from '../errors/berth-error.js';
import { driverUnavailable } from '../errors/refusals.js';

/**
 * Runs a backend call so that only BerthErrors leave it: anything else a backend throws is the
 * cause of DRIVER_UNAVAILABLE, never the app's problem to parse.
 */
export async function guarded<T>(
  driver: string,
  operation: string,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isBerthError(error)) throw error;
    throw driverUnavailable({ driver, operation, cause: error });
  }
}
