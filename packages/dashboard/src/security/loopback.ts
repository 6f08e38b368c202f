import type { IncomingMessage } from 'node:http';

const IPV4_LOOPBACK = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const LOOPBACK_HOST = /^(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(?::\d{1,5})?$/i;
/** Headers a reverse proxy adds: a proxy on this machine makes every peer look local. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip', 'x-forwarded-host'];

/** `127.0.0.0/8`, `::1`, and IPv4 loopback mapped into IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  if (address === '::1') return true;
  const v4 = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  return IPV4_LOOPBACK.test(v4);
}

/** A host name or address `serveDashboard` may bind without `auth`. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || isLoopbackAddress(host.replace(/^\[|\]$/g, ''));
}

/**
 * Why a request may not see a dashboard that has no `auth`, or undefined when it may: the peer
 * must be this machine, no proxy may have forwarded it, and its `Host` must be a loopback name
 * (a page on another site whose name resolves to 127.0.0.1 — DNS rebinding — names its own).
 */
export function loopbackRefusal(request: IncomingMessage): string | undefined {
  const peer = request.socket.remoteAddress;
  if (!isLoopbackAddress(peer)) return `the request came from ${peer ?? 'an unknown address'}`;
  const forwarded = FORWARDING_HEADERS.find((name) => request.headers[name] !== undefined);
  if (forwarded !== undefined) return `the request came through a proxy (${forwarded})`;
  const host = request.headers.host ?? '';
  if (!LOOPBACK_HOST.test(host)) return `the request's Host is ${JSON.stringify(host)}`;
  return undefined;
}
