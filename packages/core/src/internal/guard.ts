import { isBerthError } from '../errors/berth-error.js';
import { driverClosed, driverUnavailable } from '../errors/refusals.js';

/**
 * Runs a backend call so that only BerthErrors leave it: anything else a backend throws is the
 * cause of DRIVER_UNAVAILABLE, never the app's problem to parse. Once `closed()` holds, a call
 * is refused DRIVER_CLOSED before it starts, and one that was in flight and failed (a pool
 * ended under it) is DRIVER_CLOSED too, whatever the backend said.
 */
export async function guarded<T>(
  driver: string,
  operation: string,
  call: () => Promise<T>,
  closed: () => boolean = () => false,
): Promise<T> {
  if (closed()) throw driverClosed({ driver, operation });
  try {
    return await call();
  } catch (error) {
    if (closed() && !isBerthError(error)) throw driverClosed({ driver, operation, cause: error });
    if (closed() && isBerthError(error, 'DRIVER_UNAVAILABLE')) {
      throw driverClosed({ driver, operation, cause: error.cause ?? error });
    }
    if (isBerthError(error)) throw error;
    throw driverUnavailable({ driver, operation, cause: error });
  }
}
