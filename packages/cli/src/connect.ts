import { configInvalid, type Driver, MIN_CURSOR_SECRET_LENGTH } from '@berth/core';
import type { MigrateResult, MigrationStatus } from '@berth/driver-pg';
import { driverNotInstalled, UsageError, urlUnsupported } from './errors.js';

/** Where the queue is: `--url` (or BERTH_URL), and the namespace inside it. */
export interface Target {
  readonly url?: string | undefined;
  readonly schema?: string | undefined;
  readonly prefix?: string | undefined;
  /** The key the deployment signs list cursors with, when it sets one. */
  readonly cursorSecret?: string | undefined;
}

/** An open driver, and the pg schema's migrations when the backend has any. */
export interface Connection {
  readonly kind: 'pg' | 'redis' | 'nats';
  readonly driver: Driver;
  readonly migrations?: {
    readonly schema: string;
    migrate(): Promise<MigrateResult>;
    status(): Promise<MigrationStatus>;
  };
}

const SCHEMES: Readonly<Record<string, 'pg' | 'redis' | 'nats'>> = {
  'postgres:': 'pg',
  'postgresql:': 'pg',
  'redis:': 'redis',
  'rediss:': 'redis',
  'nats:': 'nats',
};

/** The scheme of `url` as `new URL` spells it (`postgres:`), or undefined when it is no URL. */
function schemeOf(url: string): string | undefined {
  try {
    return new URL(url).protocol;
  } catch {
    return undefined;
  }
}

/**
 * Imports an optional driver package. Node's "cannot find package" (the driver, or the client
 * library the driver imports) becomes DRIVER_NOT_INSTALLED naming what to install; anything else
 * is the package's own failure and is rethrown.
 */
export async function load<T>(
  scheme: string,
  driverPackage: string,
  peer: string,
  importer: () => Promise<T>,
): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== 'ERR_MODULE_NOT_FOUND') throw error;
    const missing = /Cannot find (?:package|module) '([^']+)'/.exec(String(error))?.[1];
    throw driverNotInstalled({
      scheme,
      driverPackage,
      peer,
      missing: missing === undefined || missing.startsWith('/') ? driverPackage : missing,
    });
  }
}

/** Opens the driver the URL's scheme names; the namespace flag must fit that driver. */
export async function connect(target: Target): Promise<Connection> {
  const url = target.url;
  if (url === undefined || url === '') {
    throw new UsageError('no queue to talk to: pass --url <url> or set BERTH_URL');
  }
  const scheme = schemeOf(url);
  // Checked before any driver exists: a driver that refuses its secret after opening its
  // connection (redis does) would leave the process waiting on that connection.
  if (target.cursorSecret !== undefined && target.cursorSecret.length < MIN_CURSOR_SECRET_LENGTH) {
    throw configInvalid({
      option: '--cursor-secret',
      reason: `is ${target.cursorSecret.length} characters long; a cursorSecret has at least ${MIN_CURSOR_SECRET_LENGTH}`,
      allowed: `must be the cursorSecret the app's driver signs list cursors with (at least ${MIN_CURSOR_SECRET_LENGTH} characters)`,
      example: 'berth jobs ls --cursor-secret "$BERTH_CURSOR_SECRET"',
    });
  }
  const secret = target.cursorSecret === undefined ? {} : { cursorSecret: target.cursorSecret };
  const kind = scheme === undefined ? undefined : SCHEMES[scheme];
  if (scheme === undefined || kind === undefined) throw urlUnsupported(url, scheme);

  if (kind === 'pg') {
    if (target.prefix !== undefined) {
      throw new UsageError('--prefix is for redis:// URLs; a postgres:// queue takes --schema');
    }
    const { createPgDriver, DEFAULT_SCHEMA } = await load(
      scheme,
      '@berth/driver-pg',
      'pg',
      () => import('@berth/driver-pg'),
    );
    const schema = target.schema ?? DEFAULT_SCHEMA;
    const driver = createPgDriver({ connectionString: url, schema, ...secret });
    return {
      kind,
      driver,
      migrations: {
        schema,
        migrate: () => driver.migrate(),
        status: () => driver.migrationStatus(),
      },
    };
  }

  if (target.schema !== undefined) {
    throw new UsageError(`--schema is for postgres:// URLs; a ${scheme}// queue takes --prefix`);
  }
  const prefix = target.prefix === undefined ? {} : { prefix: target.prefix };
  if (kind === 'nats') {
    const { createNatsDriver } = await load(
      scheme,
      '@berth/driver-nats',
      '@nats-io/transport-node @nats-io/jetstream @nats-io/kv',
      () => import('@berth/driver-nats'),
    );
    return { kind, driver: createNatsDriver({ servers: url, ...prefix, ...secret }) };
  }
  const { createRedisDriver } = await load(
    scheme,
    '@berth/driver-redis',
    'ioredis',
    () => import('@berth/driver-redis'),
  );
  return { kind, driver: createRedisDriver({ url, ...prefix, ...secret }) };
}
