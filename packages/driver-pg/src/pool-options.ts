import { configInvalid } from '@berth/core/driver';
import type pg from 'pg';

/**
 * How the pool the driver opens itself (from `connectionString` or the `PG*` variables) behaves.
 * Every member is optional; the defaults suit a production app. An app that passes its own
 * `pool` or `executor` configures that itself.
 */
export interface PgPoolOptions {
  /** Most connections the pool holds at once (pg's `max`). Default 10. */
  readonly max?: number;
  /**
   * TCP keepalive on every connection, so a connection to a server that vanished (a failover, a
   * dropped network path) is noticed while idle instead of hanging. Default true.
   */
  readonly keepAlive?: boolean;
  /** Idle time before the first keepalive probe, in ms. Default 10_000. Needs `keepAlive`. */
  readonly keepAliveInitialDelayMs?: number;
  /**
   * How long opening one connection may take, in ms, before the call that needed it fails with
   * DRIVER_UNAVAILABLE. Default 10_000; 0 waits without limit (pg's own default).
   */
  readonly connectionTimeoutMs?: number;
  /** How long a connection may sit idle in the pool before it is closed, in ms. Default 10_000; 0 keeps it. */
  readonly idleTimeoutMs?: number;
  /**
   * The server's `statement_timeout` for each connection, in ms: a statement running longer is
   * cancelled and the call answers DRIVER_UNAVAILABLE. Default 0: the server's setting. It also
   * bounds `migrate()`, whose index builds on a large table can take long.
   */
  readonly statementTimeoutMs?: number;
  /**
   * The server's `idle_in_transaction_session_timeout` for each connection, in ms: a session that
   * holds a transaction open this long without a statement (a stalled process) is ended, with its
   * locks. The driver never idles inside a transaction itself. Default 60_000; 0: the server's
   * setting.
   */
  readonly idleInTransactionSessionTimeoutMs?: number;
}

/** The defaults of every pool option. */
export const POOL_DEFAULTS = {
  max: 10,
  keepAlive: true,
  keepAliveInitialDelayMs: 10_000,
  connectionTimeoutMs: 10_000,
  idleTimeoutMs: 10_000,
  statementTimeoutMs: 0,
  idleInTransactionSessionTimeoutMs: 60_000,
} as const satisfies Required<PgPoolOptions>;

type OptionName = keyof PgPoolOptions;
type NumberOption = Exclude<OptionName, 'keepAlive'>;

/** pg's timers and the server's timeouts both stop at a signed 32-bit count of ms. */
const MAX_MS = 2_147_483_647;

/** Each option's smallest value, and a valid value for the fix's example. */
const RULES: Readonly<Record<OptionName, { readonly min: number; readonly sample: string }>> = {
  max: { min: 1, sample: '20' },
  keepAlive: { min: 0, sample: 'true' },
  keepAliveInitialDelayMs: { min: 1, sample: '10_000' },
  connectionTimeoutMs: { min: 0, sample: '10_000' },
  idleTimeoutMs: { min: 0, sample: '10_000' },
  statementTimeoutMs: { min: 0, sample: '30_000' },
  idleInTransactionSessionTimeoutMs: { min: 0, sample: '60_000' },
};

const describe = (value: unknown): string =>
  typeof value === 'number' || typeof value === 'string'
    ? (JSON.stringify(value) ?? String(value))
    : value === null
      ? 'null'
      : Array.isArray(value)
        ? 'an array'
        : typeof value;

/** `option` is `poolOptions` or `poolOptions.<name>`; the example sets a valid value of it. */
const refuse = (option: string, reason: string, allowed: string) => {
  const name = option.split('.')[1] as OptionName | undefined;
  const setting = name === undefined ? 'max: 20' : `${name}: ${RULES[name].sample}`;
  return configInvalid({
    option,
    reason,
    allowed,
    example: `createPgDriver({ connectionString, poolOptions: { ${setting} } })`,
  });
};

function integer(name: NumberOption, value: unknown): number {
  const { min } = RULES[name];
  const max = name === 'max' ? Number.MAX_SAFE_INTEGER : MAX_MS;
  const allowed =
    name === 'max' ? `must be an integer >= ${min}` : `must be an integer from ${min} to ${max}`;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw refuse(`poolOptions.${name}`, `is ${describe(value)}; it ${allowed}`, allowed);
  }
  return value;
}

/**
 * Screens `poolOptions` (CONFIG_INVALID naming the option) and answers the pg config that
 * carries them: pool settings for pg-pool, connection settings for each client it opens.
 */
export function poolConfig(value: unknown): pg.PoolConfig {
  if (value === undefined) return poolConfig({});
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw refuse(
      'poolOptions',
      `is ${describe(value)}, not an object`,
      'must be an object of pool settings such as max and statementTimeoutMs',
    );
  }
  const given = value as Readonly<Record<string, unknown>>;
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(RULES, key)) {
      throw refuse(
        'poolOptions',
        `has ${JSON.stringify(key)}, which is not a pool option`,
        `takes only ${Object.keys(RULES).join(', ')}`,
      );
    }
  }
  const read = (name: NumberOption): number =>
    given[name] === undefined ? POOL_DEFAULTS[name] : integer(name, given[name]);
  const keepAlive = given.keepAlive ?? POOL_DEFAULTS.keepAlive;
  if (typeof keepAlive !== 'boolean') {
    throw refuse(
      'poolOptions.keepAlive',
      `is ${describe(keepAlive)}, not a boolean`,
      'must be true (the default) or false',
    );
  }
  if (!keepAlive && given.keepAliveInitialDelayMs !== undefined) {
    throw refuse(
      'poolOptions.keepAliveInitialDelayMs',
      'was given with keepAlive: false, which sends no probes',
      'needs keepAlive: true (the default): leave out one of the two',
    );
  }
  const statementTimeout = read('statementTimeoutMs');
  const idleInTransaction = read('idleInTransactionSessionTimeoutMs');
  return {
    max: read('max'),
    keepAlive,
    ...(keepAlive ? { keepAliveInitialDelayMillis: read('keepAliveInitialDelayMs') } : {}),
    connectionTimeoutMillis: read('connectionTimeoutMs'),
    idleTimeoutMillis: read('idleTimeoutMs'),
    // pg sends these as startup parameters of each connection, and leaves out a 0.
    ...(statementTimeout === 0 ? {} : { statement_timeout: statementTimeout }),
    ...(idleInTransaction === 0 ? {} : { idle_in_transaction_session_timeout: idleInTransaction }),
    // A user's application_name (URL or PGAPPNAME) wins; this names Berth's sessions otherwise.
    fallback_application_name: 'berth',
  };
}
