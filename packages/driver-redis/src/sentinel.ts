import type { ConnectionOptions } from 'node:tls';
import { configInvalid } from '@berth/core/driver';
import type { RedisOptions } from 'ioredis';

/** ioredis options as its constructor takes them (its `replyMapping` types do not line up). */
export type ConnectionSettings = Omit<RedisOptions, 'replyMapping'>;

export interface SentinelAddress {
  readonly host: string;
  readonly port: number;
}

/** The options that reach the master through Redis Sentinel (`sentinels` and `name` together). */
export interface SentinelOptions {
  /** Sentinels to ask for the master: the driver follows it through every failover. */
  readonly sentinels?: readonly SentinelAddress[];
  /** The master name the sentinels monitor (`sentinel monitor <name> ...`). */
  readonly name?: string;
  readonly sentinelUsername?: string;
  readonly sentinelPassword?: string;
  /** The master's (and replicas') ACL user and password. */
  readonly username?: string;
  readonly password?: string;
  /** The database number on the master. Default 0. */
  readonly db?: number;
  /** TLS to the master, as node's `tls.connect` takes it. */
  readonly tls?: ConnectionOptions;
  /** TLS to the sentinels. */
  readonly sentinelTls?: ConnectionOptions;
}

const EXAMPLE =
  "createRedisDriver({ sentinels: [{ host: '10.0.0.1', port: 26379 }], name: 'mymaster' })";

/** Options that mean something only with `sentinels`: a URL carries its own. */
const SENTINEL_ONLY = [
  'name',
  'sentinelUsername',
  'sentinelPassword',
  'username',
  'password',
  'db',
  'tls',
  'sentinelTls',
] as const;

/** A value of each, for the example call of a refusal. */
const SAMPLE: Record<(typeof SENTINEL_ONLY)[number], string> = {
  name: "'mymaster'",
  sentinelUsername: "'berth'",
  sentinelPassword: 'process.env.SENTINEL_PASSWORD',
  username: "'berth'",
  password: 'process.env.REDIS_PASSWORD',
  db: '0',
  tls: '{}',
  sentinelTls: '{}',
};

const STRINGS = ['sentinelUsername', 'sentinelPassword', 'username', 'password'] as const;

const isPort = (port: unknown): boolean =>
  typeof port === 'number' && Number.isInteger(port) && port >= 1 && port <= 65_535;

function screenAddresses(sentinels: unknown): readonly SentinelAddress[] {
  if (!Array.isArray(sentinels) || sentinels.length === 0) {
    throw configInvalid({
      option: 'sentinels',
      reason: 'is not a list of sentinel addresses',
      allowed: 'takes a non-empty list of { host, port }, one per sentinel',
      example: `createRedisDriver({ sentinels: [{ host: '10.0.0.1', port: 26379 }], name: 'mymaster' })`,
    });
  }
  sentinels.forEach((address: unknown, index) => {
    const { host, port } = (address ?? {}) as { host?: unknown; port?: unknown };
    if (typeof host !== 'string' || host === '') {
      throw configInvalid({
        option: `sentinels[${index}].host`,
        reason: `is ${JSON.stringify(host) ?? 'undefined'}; it must be a host name or address`,
        allowed: 'takes the host name or address of a sentinel',
        example: `createRedisDriver({ sentinels: [{ host: '10.0.0.1', port: 26379 }], name: 'mymaster' })`,
      });
    }
    if (!isPort(port)) {
      throw configInvalid({
        option: `sentinels[${index}].port`,
        reason: `is ${JSON.stringify(port) ?? 'undefined'}; it must be a TCP port (1-65535)`,
        allowed: 'takes the TCP port a sentinel listens on, an integer 1-65535 (usually 26379)',
        example: `createRedisDriver({ sentinels: [{ host: '10.0.0.1', port: 26379 }], name: 'mymaster' })`,
      });
    }
  });
  return sentinels as readonly SentinelAddress[];
}

function screenRest(options: SentinelOptions): void {
  if (typeof options.name !== 'string' || options.name === '') {
    throw configInvalid({
      option: 'name',
      reason: 'is missing; sentinels need the master name they monitor',
      allowed: 'takes the master name of `sentinel monitor <name> ...` in sentinel.conf',
      example: EXAMPLE,
    });
  }
  for (const option of STRINGS) {
    const value = options[option];
    if (value !== undefined && typeof value !== 'string') {
      throw configInvalid({
        option,
        reason: `is a ${typeof value}; it must be a string`,
        allowed: 'takes a string',
        example: `createRedisDriver({ sentinels, name: 'mymaster', ${option}: process.env.REDIS_SECRET })`,
      });
    }
  }
  const { db } = options;
  if (db !== undefined && (!Number.isInteger(db) || db < 0)) {
    throw configInvalid({
      option: 'db',
      reason: `is ${String(db)}; it must be a database number, an integer from 0`,
      allowed: 'takes a database number, an integer from 0 (default 0)',
      example: "createRedisDriver({ sentinels, name: 'mymaster', db: 0 })",
    });
  }
  for (const option of ['tls', 'sentinelTls'] as const) {
    const value = options[option];
    if (value !== undefined && (value === null || typeof value !== 'object')) {
      throw configInvalid({
        option,
        reason: `is ${String(value)}; it must be an object of node tls.connect options`,
        allowed: 'takes the options node tls.connect takes ({} for the defaults)',
        example: `createRedisDriver({ sentinels, name: 'mymaster', ${option}: { ca } })`,
      });
    }
  }
}

/**
 * The ioredis options that reach the master through the sentinels, or undefined without
 * `sentinels`. Refuses, at construction, sentinel options without `sentinels`, `sentinels`
 * beside `url` or `redis`, and values of the wrong shape.
 */
export function screenSentinel(
  options: SentinelOptions & { readonly url?: string | undefined; readonly redis?: unknown },
): ConnectionSettings | undefined {
  if (options.sentinels === undefined) {
    const stray = SENTINEL_ONLY.find((option) => options[option] !== undefined);
    if (stray !== undefined) {
      throw configInvalid({
        option: stray,
        reason: 'was given without sentinels',
        allowed:
          'applies to a connection through Redis Sentinel only; with url, put it in the URL (redis://user:password@host:6379/0, rediss:// for TLS)',
        example: `createRedisDriver({ sentinels: [{ host: '10.0.0.1', port: 26379 }], name: 'mymaster', ${stray}: ${SAMPLE[stray]} })`,
      });
    }
    return undefined;
  }
  for (const other of ['url', 'redis'] as const) {
    if (options[other] !== undefined) {
      throw configInvalid({
        option: 'sentinels',
        reason: `and ${other} were both given`,
        allowed: `reach the master through the sentinels; give them or ${other}, not both`,
        example: EXAMPLE,
      });
    }
  }
  const sentinels = screenAddresses(options.sentinels);
  screenRest(options);
  return {
    sentinels: sentinels.map(({ host, port }) => ({ host, port })),
    name: options.name,
    role: 'master',
    // Told of a +switch-master, the connection leaves the old master at once.
    failoverDetector: true,
    ...(options.sentinelUsername === undefined
      ? {}
      : { sentinelUsername: options.sentinelUsername }),
    ...(options.sentinelPassword === undefined
      ? {}
      : { sentinelPassword: options.sentinelPassword }),
    ...(options.username === undefined ? {} : { username: options.username }),
    ...(options.password === undefined ? {} : { password: options.password }),
    ...(options.db === undefined ? {} : { db: options.db }),
    ...(options.tls === undefined ? {} : { tls: options.tls, enableTLSForSentinelMode: true }),
    ...(options.sentinelTls === undefined ? {} : { sentinelTLS: options.sentinelTls }),
  };
}
