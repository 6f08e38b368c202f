import { configInvalid } from '@berth/core';

/** The schemes a NATS server URL may have for the Node transport; `tls` asks for TLS. */
const SCHEMES = new Set(['nats:', 'tls:']);

/**
 * Refuses, at construction, a server URL of another scheme (a `redis://` URL given by mistake),
 * which the client would otherwise try, and fail, on every reconnect. `host:port` without a
 * scheme is fine: the client reads it as nats://.
 */
export function screenServers<T extends string | readonly string[] | undefined>(servers: T): T {
  for (const url of [servers ?? []].flat()) {
    const scheme = /^([a-z][a-z0-9+.-]*:)\/\//i.exec(url)?.[1]?.toLowerCase();
    if (scheme === undefined || SCHEMES.has(scheme)) continue;
    throw configInvalid({
      option: 'servers',
      reason: `has the scheme ${scheme}//, which is not NATS`,
      allowed: 'must be nats:// URLs (tls:// for TLS), or host:port',
      example: "createNatsDriver({ servers: 'nats://127.0.0.1:4222' })",
    });
  }
  return servers;
}
