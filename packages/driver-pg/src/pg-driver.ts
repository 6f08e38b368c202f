import {
  type BaseDriverOptions,
  configInvalid,
  createDriver,
  type Driver,
  type DriverBackend,
  driverClosed,
  resolveBaseOptions,
} from '@berth/core/driver';
import { createDb, openConnections, type PgConnectionOptions } from './executor.js';
import { createListenConnection } from './listen-connection.js';
import { type MigrateResult, migrate } from './migrate.js';
import { type MigrationStatus, migrationStatus } from './migration-status.js';
import { attemptStore } from './ops/attempts.js';
import { backfillStore } from './ops/backfills.js';
import { checkOps } from './ops/check.js';
import { claimOps } from './ops/claim.js';
import { deleteOps } from './ops/delete.js';
import { enqueueOps } from './ops/enqueue.js';
import { enqueueAdvancingOps } from './ops/enqueue-advancing.js';
import { extendManyOps } from './ops/extend-many.js';
import { lifecycleStore } from './ops/lifecycle.js';
import { logStore } from './ops/logs.js';
import { operatorOps } from './ops/operator.js';
import { pauseStore } from './ops/pause.js';
import { progressOps } from './ops/progress.js';
import { scheduleStore } from './ops/schedules.js';
import { settleOps } from './ops/settle.js';
import { eventStore, leaseStore, markStore, stepStore } from './ops/stores.js';
import { preparedNames } from './prepared.js';
import { watchSettles } from './settle-watch.js';
import { statements } from './sql/index.js';
import {
  cancelChannel,
  DEFAULT_SCHEMA,
  quoteSchema,
  settleChannel,
  wakeChannel,
} from './sql/schema.js';
import { subscribeWake } from './wake.js';

/**
 * The connection, the schema and the base options (`clock`, `hooks`, `maxPayloadBytes`,
 * `cursorSecret`, whose default derives from the schema, `lifecycleRetention`: see
 * BaseDriverOptions).
 */
export interface PgDriverOptions extends PgConnectionOptions, BaseDriverOptions {
  /** The schema Berth's tables live in. Default `berth`. */
  readonly schema?: string;
  /**
   * Sends the single enqueue and the claim as prepared statements (each connection parses them
   * once). Default true; set false behind a pooler that does not keep a
   * session's prepared statements (PgBouncer in transaction mode before 1.21), or when the app
   * runs DISCARD ALL on the pool's connections. An `executor` never uses them.
   */
  readonly preparedStatements?: boolean;
}

/** The contract's driver, plus the migrations of its schema. */
export interface PgDriver extends Driver {
  /** Brings the schema to the latest version; safe to run from many processes at once. */
  migrate(): Promise<MigrateResult>;
  /** Which migrations the schema holds and which `migrate()` would apply; changes nothing. */
  migrationStatus(): Promise<MigrationStatus>;
}

/** Whether the hot statements go prepared: refuses anything but a boolean (or absent). */
function usePrepared(value: unknown): boolean {
  if (value === undefined || typeof value === 'boolean') return value !== false;
  throw configInvalid({
    option: 'preparedStatements',
    reason: `is ${JSON.stringify(value)}, not a boolean`,
    allowed: 'must be true (the default) or false',
    example: 'createPgDriver({ connectionString, preparedStatements: false })',
  });
}

/** A Berth driver over PostgreSQL. Call `migrate()` once (at deploy or boot) before use. */
export function createPgDriver(options: PgDriverOptions = {}): PgDriver {
  const schema = options.schema ?? DEFAULT_SCHEMA;
  const s = quoteSchema(schema);
  const base = resolveBaseOptions('pg', schema, options);
  const prepared = usePrepared(options.preparedStatements);
  const connections = openConnections(options);
  const sql = statements(s);
  const sendNamed = prepared ? connections.sendNamed : undefined;
  const context = {
    db: createDb(
      connections.executor,
      schema,
      options.executor !== undefined,
      sendNamed === undefined ? undefined : { names: preparedNames(sql), send: sendNamed },
    ),
    sql,
    clock: base.clock,
    hooks: base.hooks,
    channel: wakeChannel(schema),
    cancelChannel: cancelChannel(schema),
    settleChannel: settleChannel(schema),
    schema,
  };
  // Wake subscriptions and settle watches share one listening connection.
  const listener =
    connections.listenConfig === undefined
      ? undefined
      : createListenConnection(connections.listenConfig, new Set([context.settleChannel]));
  const wakeChannels = { work: context.channel, cancels: context.cancelChannel };
  let closing: Promise<void> | undefined;

  const backend: DriverBackend = {
    name: 'pg',
    clock: context.clock,
    maxPayloadBytes: base.maxPayloadBytes,
    cursorSecret: base.cursorSecret,
    hooks: context.hooks,
    ...enqueueOps(context),
    enqueueMarked: enqueueAdvancingOps(context),
    ...claimOps(context),
    ...settleOps(context),
    ...progressOps(context),
    ...extendManyOps(context),
    ...operatorOps(context),
    ...deleteOps(context),
    steps: stepStore(context),
    attempts: attemptStore(context),
    events: eventStore(context),
    leases: leaseStore(context),
    marks: markStore(context),
    pauses: pauseStore(context),
    backfills: backfillStore(context),
    schedules: scheduleStore(context),
    logs: logStore(context),
    lifecycle: lifecycleStore(context, base.lifecycleRetention),
    ...checkOps(context),
    ...(listener === undefined
      ? {}
      : {
          subscribe: (queues, onWork, onCancelled) =>
            subscribeWake(listener, wakeChannels, queues, onWork, onCancelled),
          watchSettles: (onSettled) => watchSettles(listener, context.settleChannel, onSettled),
        }),
    close() {
      closing ??= (async () => {
        await listener?.close();
        await connections.close();
        context.db.abandon(
          new Error('the pool was ended while this statement waited for a connection'),
        );
      })();
      return closing;
    },
  };

  const driver = createDriver(backend);
  return {
    ...driver,
    async migrate() {
      if (closing !== undefined) throw driverClosed({ driver: 'pg', operation: 'migrate' });
      return migrate({ executor: connections.pool ?? connections.executor, schema });
    },
    async migrationStatus() {
      if (closing !== undefined) {
        throw driverClosed({ driver: 'pg', operation: 'read migration status' });
      }
      return migrationStatus({ executor: connections.executor, schema });
    },
  };
}
