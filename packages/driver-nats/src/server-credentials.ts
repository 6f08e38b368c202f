import { configInvalid } from '@berth/core/driver';

/** How the connection proves who it is, read from the servers' URLs. */
export type ServerCredentials =
  | { readonly user: string; readonly pass: string }
  | { readonly token: string }
  | Record<string, never>;

/** Servers without their credentials, and the credentials they carried. */
export interface SplitServers {
  readonly servers: string[];
  readonly credentials: ServerCredentials;
}

/**
 * Takes `nats://USER:PASSWORD@host` (and `nats://TOKEN@host`) apart: nats.js ignores credentials
 * in a server URL and connects as nobody, so the driver hands them to it as `user`/`pass` (or
 * `token`). One connection has one identity: URLs naming different credentials are refused at
 * construction.
 */
export function splitCredentials(servers: string | readonly string[]): SplitServers {
  const split = [servers].flat().map(splitOne);
  const named = split.filter((one) => Object.keys(one.credentials).length > 0);
  const first = named[0]?.credentials ?? {};
  const key = JSON.stringify(first);
  if (named.some((one) => JSON.stringify(one.credentials) !== key)) {
    throw configInvalid({
      option: 'servers',
      reason: 'name different credentials in different URLs',
      allowed: 'one user (or token) for every URL: the driver opens one connection',
      example:
        "createNatsDriver({ servers: ['nats://app:secret@a:4222', 'nats://app:secret@b:4222'] })",
    });
  }
  return { servers: split.map((one) => one.server), credentials: first };
}

function splitOne(server: string): { server: string; credentials: ServerCredentials } {
  const schemed = /^[a-z][a-z0-9+.-]*:\/\//i.test(server);
  let url: URL;
  try {
    url = new URL(schemed ? server : `nats://${server}`);
  } catch {
    return { server, credentials: {} };
  }
  if (url.username === '' && url.password === '') return { server, credentials: {} };
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  const bare = schemed ? url.toString() : url.toString().slice('nats://'.length);
  return {
    server: bare.endsWith('/') && !server.endsWith('/') ? bare.slice(0, -1) : bare,
    credentials: url.password === '' && pass === '' ? { token: user } : { user, pass },
  };
}
