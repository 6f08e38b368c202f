import type { Redis } from 'ioredis';
import type { RunScript } from './confirmed.js';

/** A replica's refusal of a write: the connection still points at a demoted primary. */
export const isReadOnly = (error: unknown): boolean =>
  error instanceof Error && /^(ERR .*)?READONLY\b/.test(error.message);

/** ioredis's own `commandTimeout` failure. */
export const isTimeout = (error: unknown): boolean =>
  error instanceof Error && error.message === 'Command timed out';

/**
 * For ioredis `reconnectOnError`: a READONLY reply reconnects (through the sentinels, to the
 * master they name now). `true` (1), not 2: the driver resends the call itself
 * (`resendOnReadOnly`) once the connection is ready, as ioredis's own resend would meet
 * maxRetriesPerRequest 0.
 */
export const reconnectOnReadOnly = (error: Error): boolean => isReadOnly(error);

/** Resolves at the connection's next `ready`, or rejects after `ms`. */
function nextReady(redis: Redis, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      redis.off('ready', ready);
      reject(new Error(`no writable primary within ${ms} ms after a READONLY reply`));
    }, ms);
    const ready = () => {
      clearTimeout(timer);
      resolve();
    };
    redis.once('ready', ready);
  });
}

/**
 * A script a replica refused (READONLY) ran nowhere: a replica refuses the first write of a
 * script and a script makes no write before it. It is sent again once, on the reconnected
 * connection.
 */
export function resendOnReadOnly(redis: Redis, run: RunScript, waitMs: number): RunScript {
  return async (script, now, args) => {
    try {
      return await run(script, now, args);
    } catch (error) {
      if (!isReadOnly(error)) throw error;
      await nextReady(redis, waitMs);
      return run(script, now, args);
    }
  };
}

/**
 * After a command timed out, the connection is dropped and made again: a frozen or partitioned
 * primary keeps its socket open, and only a new connection asks the sentinels where the master
 * is now. At most one such reconnect per `quietMs`, so a burst of timeouts makes one; answers
 * whether this call made one.
 */
export function reconnectAfterTimeout(redis: Redis, quietMs: number): (error: unknown) => boolean {
  let last = 0;
  return (error) => {
    if (!isTimeout(error)) return false;
    const now = Date.now();
    if (now - last < quietMs) return false;
    last = now;
    // Only a connection with a socket: one `connecting` is already being made anew, and
    // `disconnect(true)` then ends an ioredis Sentinel connection for good ("Connection is closed").
    const open = ['ready', 'connect'].includes(redis.status);
    if (open) redis.disconnect(true);
    return open;
  };
}

/**
 * ioredis ends a Sentinel connection for good ("Connection is closed" on every later call, no
 * reconnect) when it is disconnected while a reconnect is asking the sentinels where the master
 * is. Its own failover detector does that: the detector of a connection that closed (a killed
 * primary) stays subscribed to +switch-master, and the announcement, heard seconds later, cuts
 * short whichever reconnect is under way then. An end its owner did not ask for (`wanted()`
 * still true) connects again.
 */
export function reconnectOnEnd(redis: Redis, wanted: () => boolean): void {
  redis.on('end', () => {
    // A connect that fails ends the connection again: this runs again then.
    if (wanted()) redis.connect().catch(() => {});
  });
}
