import { configInvalid } from '@berth/core/driver';

/** The URL schemes `pg` reads as a host URL. */
const SCHEMES = new Set(['postgres:', 'postgresql:']);

const EXAMPLE = "createPgDriver({ connectionString: 'postgres://app@db.internal:5432/app' })";

const refuse = (reason: string, allowed: string) =>
  configInvalid({ option: 'connectionString', reason, allowed, example: EXAMPLE });

/**
 * `pg` reads one host and port. libpq's multi-host form (`a:5432,b:5432` or `?host=a,b`) either
 * fails `new URL` or becomes one host name `a,b` that no DNS answers, both only at the first call.
 */
const multiHost = (hosts: string) =>
  refuse(
    `names several hosts (${hosts}); pg connects to one host and cannot pick the primary among several`,
    'must name one host: the address of a proxy, virtual IP or failover manager that always routes to the primary (PgBouncer, HAProxy with a primary check, Patroni or pg_auto_failover), or pass your own pg.Pool (as `pool`) built on whatever picks the primary',
  );

/** What lies between `://` and the path, without credentials: the hosts and ports. */
const hostPart = (url: string): string => {
  const authority = url.slice(url.indexOf('://') + 3).split(/[/?#]/)[0] ?? '';
  return authority.slice(authority.lastIndexOf('@') + 1);
};

/**
 * The URL as pg-connection-string builds it: spaces and stray `%` encoded first, and an empty
 * host after credentials (`postgres://u@/db?host=/tmp`) given a placeholder.
 */
function parseLikePg(url: string): URL | undefined {
  const text = /[ ]|%[^a-f0-9]|%[a-f0-9][^a-f0-9]/i.test(url)
    ? encodeURI(url).replace(/%25(\d\d)/g, '%$1')
    : url;
  for (const candidate of [text, text.replace('@/', '@placeholder/')]) {
    try {
      return new URL(candidate);
    } catch {
      // tried next with the placeholder host, as pg does
    }
  }
  return undefined;
}

/**
 * Refuses, at construction, a connection string pg would fail on only at the first call (or
 * read as something else): another scheme, several hosts, a URL that does not parse, or a
 * keyword/value string (`host=… dbname=…`, which pg does not read). A path starting with `/` is
 * a Unix socket directory, as in pg. The string is never echoed: it may hold a password.
 */
export function screenConnectionString(url: unknown): void {
  if (typeof url !== 'string') {
    throw refuse(
      `is ${typeof url}, not a string`,
      'must be a postgres:// (or postgresql://) URL string',
    );
  }
  // A socket directory, as a path or as pg's `socket:/dir?db=name`.
  if (url === '' || url.startsWith('/') || /^socket:/i.test(url)) return;
  const scheme = /^([a-z][a-z0-9+.-]*:)\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    throw refuse(
      'is not a URL (pg reads only URLs, not keyword/value strings such as host=… dbname=…)',
      'must be a postgres:// (or postgresql://) URL',
    );
  }
  if (!SCHEMES.has(scheme)) {
    throw refuse(
      `has the scheme ${scheme}//, which is not PostgreSQL`,
      'must be a postgres:// (or postgresql://) URL',
    );
  }
  const hosts = hostPart(url);
  if (hosts.includes(',')) throw multiHost(hosts);
  const parsed = parseLikePg(url);
  if (parsed === undefined) {
    throw refuse(
      `does not parse as a URL (its host or port "${hosts}" is not valid; a port is 1 to 65535)`,
      'must be a postgres:// URL with one host and a numeric port, and with special characters of the user name or password percent-encoded',
    );
  }
  const hostParam = parsed.searchParams.get('host');
  if (hostParam?.includes(',')) throw multiHost(hostParam);
}
