import { configInvalid } from '@berth/core';
import { type Cluster, Redis } from 'ioredis';

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

/** A connection the driver owns, and the last error its socket reported. */
export interface OwnedConnection<C extends Redis | Cluster = Redis> {
  readonly redis: C;
  /** The socket's last error (ECONNREFUSED, ENOTFOUND), cleared once the connection is ready. */
  lastError(): Error | undefined;
}

/**
 * A connection the driver owns. A call in flight when the server goes away fails at once
 * (maxRetriesPerRequest 0, no silent resend of a script that may have run), a call made while
 * it reconnects fails at the next failed attempt, and none waits past the command timeout; the
 * connection itself keeps reconnecting, so the driver recovers by itself.
 */
export function openConnection(url: string, commandTimeout: number): OwnedConnection {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    enableOfflineQueue: true,
    commandTimeout,
    retryStrategy: (times) => Math.min(times * 50, 1_000),
  });
  let last: Error | undefined;
  // Reconnects report through 'error'; a call failing meanwhile names this as its cause.
  redis.on('error', (error: Error) => {
    last = error;
  });
  redis.on('ready', () => {
    last = undefined;
  });
  return { redis, lastError: () => last };
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
