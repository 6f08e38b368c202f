import {
  type BaseDriverOptions,
  configInvalid,
  createCursorCodec,
  createDriver,
  type Driver,
  type DriverBackend,
  driverUnavailable,
  isBerthError,
  resolveBaseOptions,
} from '@berth/core/driver';
import { Cluster, Redis } from 'ioredis';
import { accessFix } from './access-refused.js';
import { createAttemptStore } from './attempts.js';
import { createBackfillStore } from './backfills.js';
import { claim } from './claim.js';
import { type ClusterNode, openCluster, screenCluster } from './cluster.js';
import { createClusterSubscriber } from './cluster-subscriber.js';
import {
  type Durability,
  screenDurability,
  UnconfirmedWrite,
  unconfirmedError,
} from './confirmed.js';
import { explain, type OwnedConnection, openConnection, screenUrl } from './connection.js';
import { createContext } from './context.js';
import { deleteJob } from './delete.js';
import { explainHangUp } from './denied.js';
import { enqueueMany, insertOne, liveHolder } from './enqueue.js';
import { enqueueAdvancing } from './enqueue-advancing.js';
import { createEventStore } from './events.js';
import { extendMany } from './extend-many.js';
import { keysFor } from './keys.js';
import { createLeaseStore } from './leases.js';
import { createLifecycleStore } from './lifecycle.js';
import { list } from './list.js';
import { createLogStore } from './logs.js';
import { createMarkStore } from './marks.js';
import { cancel, get, promote, purge, requeue, stats } from './operator.js';
import { createPauseStore } from './pause.js';
import { progress } from './progress.js';
import { createScheduleStore } from './schedules.js';
import { scriptRunner } from './script-runner.js';
import { type SentinelOptions, screenSentinel } from './sentinel.js';
import { ack, ackMany, extend, nack, nackMany, suspend } from './settle.js';
import { createStepStore } from './steps.js';
import { createSubscriber } from './subscriber.js';
import { createWake } from './wake.js';

/**
 * Where Redis is (one of `url`, `redis`, `sentinels`, `cluster`), the prefix, and the base options
 * (`clock`, `hooks`, `maxPayloadBytes`, `lifecycleRetention`, `cursorSecret`, whose default
 * derives from the prefix: see BaseDriverOptions).
 */
export interface RedisDriverOptions extends SentinelOptions, BaseDriverOptions {
  /**
   * The app's own connection (a `Redis`, or a `Cluster`: all keys share one hash tag): used,
   * never closed by the driver. Give this, `url` or `sentinels`.
   */
  readonly redis?: Redis | Cluster;
  /** A Redis URL: the driver opens (and on close, closes) its own; undefined is the default. */
  readonly url?: string | undefined;
  /**
   * The startup nodes of a Redis Cluster: the driver opens (and on close, closes) its own cluster
   * client. All keys of a prefix share one hash tag, so a prefix lives on one shard. Give this,
   * `url` or `redis`.
   */
  readonly cluster?: readonly ClusterNode[] | undefined;
  /** Every key is `{prefix}:...`; one prefix is one queue. Default `berth`. */
  readonly prefix?: string;
  /** For connections the driver opens from `url`: how long one command may take. Default 10 s. */
  readonly commandTimeoutMs?: number;
  /**
   * After every write that acknowledges something, WAIT until `replicas` replicas hold it, at most
   * `timeoutMs` (under commandTimeoutMs); fewer answers DRIVER_UNAVAILABLE with `meta.replicas`.
   */
  readonly durability?: Durability;
}

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const DEFAULT_COMMAND_TIMEOUT_MS = 10_000;
const DRIVER = 'redis';

function screenOptions(options: RedisDriverOptions) {
  if (options.redis !== undefined && options.url !== undefined) {
    throw configInvalid({
      option: 'redis',
      reason: 'and url were both given',
      allowed: 'is your own connection; pass it or url (the driver opens its own), not both',
      example: 'createRedisDriver({ redis: new Redis(process.env.REDIS_URL) })',
    });
  }
  const base = resolveBaseOptions(DRIVER, options.prefix ?? 'berth', options);
  const limit = base.maxPayloadBytes;
  if (!Number.isInteger(limit) || limit < 1) {
    throw configInvalid({
      option: 'maxPayloadBytes',
      reason: `is ${String(limit)}; it must be a positive integer of bytes`,
      allowed: 'must be a positive integer of bytes (default 1 MiB)',
      example: 'createRedisDriver({ url, maxPayloadBytes: 1_048_576 })',
    });
  }
  const timeout = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  if (!Number.isInteger(timeout) || timeout < 1) {
    throw configInvalid({
      option: 'commandTimeoutMs',
      reason: `is ${String(timeout)}; it must be a positive integer of ms`,
      allowed: 'must be a positive integer of ms (default 10 000)',
      example: 'createRedisDriver({ url, commandTimeoutMs: 10_000 })',
    });
  }
  const url = options.url === undefined ? undefined : screenUrl(options.url);
  const sentinel = screenSentinel(options);
  const cluster =
    options.cluster === undefined
      ? undefined
      : screenCluster(options.cluster, {
          url: options.url !== undefined,
          redis: options.redis !== undefined,
          sentinels: options.sentinels !== undefined,
        });
  const durability = screenDurability(options.durability, timeout);
  const keys = keysFor(options.prefix ?? 'berth');
  const { cursorSecret } = base;
  // Screened here, before a connection is opened that a refusal would leave behind.
  createCursorCodec(cursorSecret, 'createRedisDriver');
  return { base, limit, timeout, url, sentinel, cluster, durability, keys, cursorSecret };
}

/** The Berth driver over Redis: every change that touches more than one key is one Lua script. */
export function createRedisDriver(options: RedisDriverOptions = {}): Driver {
  const { base, limit, timeout, url, sentinel, cluster, durability, keys, cursorSecret } =
    screenOptions(options);
  const connection: OwnedConnection<Redis | Cluster> | undefined =
    cluster !== undefined
      ? openCluster(cluster, timeout)
      : options.redis === undefined
        ? openConnection(sentinel ?? url ?? DEFAULT_REDIS_URL, timeout)
        : undefined;
  // One of the two is set: the app's connection, or the one opened from the URL.
  const redis = connection?.redis ?? (options.redis as Redis | Cluster);

  /** Runs a backend call so a Redis failure leaves it as DRIVER_UNAVAILABLE saying why. */
  const guard =
    <A extends unknown[], R>(operation: string, call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } catch (error) {
        if (isBerthError(error)) throw error;
        if (error instanceof UnconfirmedWrite) throw unconfirmedError(DRIVER, operation, error);
        connection?.noticed(error);
        const cause = explain(error, connection?.lastError());
        const fix = accessFix(cause);
        throw (
          (await explainHangUp(DRIVER, operation, cause, connection?.hungUp)) ??
          driverUnavailable({
            driver: DRIVER,
            operation,
            cause,
            ...(fix === undefined ? {} : { fix }),
          })
        );
      }
    };

  const context = createContext(
    {
      redis,
      keys,
      clock: base.clock,
      hooks: base.hooks,
      lifecycleRetention: base.lifecycleRetention,
    },
    scriptRunner({
      redis,
      base: keys.base,
      durability,
      owned: connection?.redis instanceof Redis ? connection.redis : undefined,
      timeout,
    }),
  );
  // ioredis puts an app connection's keyPrefix before KEYS[1], so the scripts publish under it;
  // it never prefixes a SUBSCRIBE channel.
  const keyPrefix = redis.options.keyPrefix ?? '';
  const wake = createWake(
    (events) =>
      redis instanceof Cluster
        ? createClusterSubscriber(redis, events)
        : createSubscriber(redis, events),
    { wake: keyPrefix + keys.wake(), settled: keyPrefix + keys.settled() },
  );
  const steps = createStepStore(context);
  const attempts = createAttemptStore(context);
  const events = createEventStore(context);
  const leases = createLeaseStore(context);
  const marks = createMarkStore(context);
  const pauses = createPauseStore(context);
  const backfills = createBackfillStore(context);
  const schedules = createScheduleStore(context);
  const logs = createLogStore(context);
  const lifecycle = createLifecycleStore(context);
  let closed = false;

  const backend: DriverBackend = {
    name: DRIVER,
    clock: context.clock,
    maxPayloadBytes: limit,
    cursorSecret,
    hooks: context.hooks,
    insert: guard('enqueue', (request) => insertOne(context, request)),
    liveHolder: guard('enqueue', (request, holderId) => liveHolder(context, request, holderId)),
    enqueueMarked: guard('enqueue', (request, mark) => enqueueAdvancing(context, request, mark)),
    enqueueMany: guard('enqueue a batch', (requests) => enqueueMany(context, requests)),
    claim: guard('claim', (request) => claim(context, request)),
    ack: guard('ack', (fence, opts) => ack(context, fence, opts)),
    nack: guard('nack', (fence, opts) => nack(context, fence, opts)),
    suspend: guard('suspend', (fence, opts) => suspend(context, fence, opts)),
    extend: guard('extend a lease', (fence, ms) => extend(context, fence, ms)),
    progress: guard('report progress', (fence, value) => progress(context, fence, value)),
    ackMany: guard('ack a batch', (items) => ackMany(context, items)),
    nackMany: guard('nack a batch', (items) => nackMany(context, items)),
    extendMany: guard('extend a batch', (items, ms) => extendMany(context, items, ms)),
    get: guard('get a job', (id, opts) => get(context, id, opts)),
    cancel: guard('cancel a job', (id, opts) => cancel(context, id, opts)),
    promote: guard('promote a job', (id, opts) => promote(context, id, opts)),
    delete: guard('delete a job', (id, opts) => deleteJob(context, id, opts)),
    requeue: guard('requeue a job', (id, opts) => requeue(context, id, opts)),
    list: guard('list jobs', (request) => list(context, request)),
    stats: guard('read stats', () => stats(context)),
    purge: guard('purge jobs', (request) => purge(context, request)),
    steps: {
      get: guard('read a step', steps.get),
      put: guard('write a step', steps.put),
      list: guard('list steps', steps.list),
    },
    attempts: { list: guard('list attempts', attempts.list) },
    events: {
      publish: guard('publish an event', events.publish),
      find: guard('find an event', events.find),
      list: guard('list events', events.list),
      purgeExpired: guard('purge expired events', events.purgeExpired),
    },
    leases: {
      acquire: guard('acquire a lease', leases.acquire),
      renew: guard('renew a lease', leases.renew),
      release: guard('release a lease', leases.release),
      holder: guard('read a lease', leases.holder),
      acquireSlot: guard('acquire a slot', leases.acquireSlot),
      renewSlot: guard('renew a slot', leases.renewSlot),
      releaseSlot: guard('release a slot', leases.releaseSlot),
    },
    marks: {
      get: guard('read a mark', marks.get),
      advance: guard('advance a mark', marks.advance),
    },
    pauses: {
      pause: guard('pause a queue', pauses.pause),
      resume: guard('resume a queue', pauses.resume),
      list: guard('list paused queues', pauses.list),
    },
    backfills: {
      start: guard('start a backfill', backfills.start),
      get: guard('read a backfill', backfills.get),
      transition: guard('change a backfill', backfills.transition),
      commit: guard('commit a backfill pass', backfills.commit),
      list: guard('list backfills', backfills.list),
    },
    schedules: {
      put: guard('store a schedule', schedules.put),
      get: guard('read a schedule', schedules.get),
      remove: guard('remove a schedule', schedules.remove),
      list: guard('list schedules', schedules.list),
      due: guard('read due schedules', schedules.due),
    },
    logs: {
      append: guard('append job logs', logs.append),
      list: guard('list job logs', logs.list),
    },
    lifecycle: {
      read: guard('read lifecycle events', lifecycle.read),
      end: guard('read the lifecycle end', lifecycle.end),
      trim: guard('trim lifecycle events', lifecycle.trim),
    },
    // Nothing to migrate: a reachable server holds all the driver needs. A keyed read, not PING:
    // on a cluster PING answers from any node, this from the one holding the prefix's slot.
    check: guard('check the backend', async () => {
      await redis.exists(keys.seq());
    }),
    subscribe: guard('subscribe', wake.subscribe),
    watchSettles: guard('watch settles', wake.watchSettles),
    async close() {
      if (closed) return;
      closed = true;
      await wake.close();
      // The app's own connection (`redis`) is never closed by the driver.
      await connection?.close();
    },
  };
  return createDriver(backend);
}
