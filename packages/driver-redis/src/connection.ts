import { configInvalid } from '@berth/core/driver';
import { type Cluster, Redis } from 'ioredis';
import type { ServerAddress } from './denied.js';
import { reconnectAfterTimeout, reconnectOnEnd, reconnectOnReadOnly } from './failover.js';
import type { ConnectionSettings } from './sentinel.js';

/** The schemes a Redis URL may have; `rediss` is TLS. */
const SCHEMES = new Set(['redis:', 'rediss:']);

/** Refuses, at construction, a URL of another scheme (a `postgres://` URL given by mistake). */
export function screenUrl(url: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*:)\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== undefined && !SCHEMES.has(scheme)) {
    throw configInvalid({
      option: 'url',
      reason: `has the scheme ${scheme}//, which is not Redis`,
      allowed: 'must be a redis:// URL, or rediss:// for TLS',
      example: "createRedisDriver({ url: 'redis://127.0.0.1:6379' })",
    });
  }
  return url;
}

const DROPPED_AFTER_TIMEOUT =
  'a command timed out, so the driver dropped the connection and is making it again (with sentinels: to the master they name now)';

/** A connection the driver owns, and the last error its socket reported. */
export interface OwnedConnection<C extends Redis | Cluster = Redis> {
  readonly redis: C;
  /** The socket's last error (ECONNREFUSED, ENOTFOUND), cleared once the connection is ready. */
  lastError(): Error | undefined;
  /**
   * The server (with sentinels: the master they named) that, at the last attempt, took the
   * connection and closed it before it was ready; undefined once a connection is ready.
   */
  hungUp(): ServerAddress | undefined;
  /** Told of every failed call: a timeout reconnects (`reconnectAfterTimeout`). */
  noticed(error: unknown): void;
  /** Closes it for good (QUIT when it is ready); only this ends it. */
  close(): Promise<void>;
}

/**
 * A connection the driver owns, to a URL or (ioredis Sentinel options) to the master the
 * sentinels name. A call in flight when the server goes away fails at once
 * (maxRetriesPerRequest 0, no silent resend of a script that may have run), a call made while
 * it reconnects fails at the next failed attempt, and none waits past the command timeout; the
 * connection itself keeps reconnecting, so the driver recovers by itself. A READONLY reply or a
 * command timeout (failover.ts) makes it reconnect, and it never ends before `close`
 * (`reconnectOnEnd`).
 */
export function openConnection(
  target: string | ConnectionSettings,
  commandTimeout: number,
): OwnedConnection {
  const settings: ConnectionSettings = {
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    enableOfflineQueue: true,
    commandTimeout,
    retryStrategy: (times) => Math.min(times * 50, 1_000),
    reconnectOnError: reconnectOnReadOnly,
    // A frozen server never answers the FIN of a reconnect: its socket is destroyed soon.
    disconnectTimeout: 500,
    // A sentinel that takes the question and never answers would stall every reconnect: past
    // this the next sentinel is asked (without sentinels ioredis reads no such option).
    sentinelCommandTimeout: commandTimeout,
  };
  const redis =
    typeof target === 'string'
      ? new Redis(target, settings)
      : new Redis({ ...target, ...settings });
  let last: Error | undefined;
  let address: ServerAddress | undefined;
  let hungUp: ServerAddress | undefined;
  let wasReady = false;
  let closing = false;
  reconnectOnEnd(redis, () => !closing);
  const reconnect = reconnectAfterTimeout(redis, Math.min(commandTimeout, 1_000));
  redis.on('connect', () => {
    // A socket the server already closed has no remote address: a URL's host and port then.
    const { remoteAddress: host, remotePort: port } = redis.stream ?? {};
    const { host: urlHost, port: urlPort, sentinels } = redis.options;
    address =
      host !== undefined && port !== undefined
        ? { host, port }
        : !sentinels && urlHost !== undefined && urlPort !== undefined
          ? { host: urlHost, port: urlPort }
          : undefined;
    wasReady = false;
  });
  redis.on('close', () => {
    if (!wasReady && address !== undefined) hungUp = address;
    address = undefined;
  });
  // Reconnects report through 'error'; a call failing meanwhile names this as its cause.
  redis.on('error', (error: Error) => {
    last = error;
  });
  redis.on('ready', () => {
    last = undefined;
    hungUp = undefined;
    wasReady = true;
  });
  return {
    redis,
    lastError: () => last,
    hungUp: () => hungUp,
    noticed: (error) => {
      // Calls failing while it reconnects name this, not "max retries per request".
      if (reconnect(error)) last = new Error(DROPPED_AFTER_TIMEOUT);
    },
    async close() {
      closing = true;
      if (redis.status === 'ready') await redis.quit().catch(() => {});
      // Also after QUIT: with sentinels, this stops the connections watching for a failover.
      redis.disconnect();
    },
  };
}

/**
 * ioredis fails a call made while it cannot connect with "Reached the max retries per request
 * limit", which says nothing of why: the socket's own error does.
 */
export function explain(error: unknown, lastSocketError: Error | undefined): unknown {
  const retriesSpent =
    error instanceof Error &&
    (error.name === 'MaxRetriesPerRequestError' ||
      error.message.startsWith('Reached the max retries'));
  return retriesSpent && lastSocketError !== undefined ? lastSocketError : error;
}
