import {
  createDriver,
  type Driver,
  type DriverBackend,
  driverUnavailable,
  type EventBackend,
  isBerthError,
  type LeaseStore,
  type MarkStore,
  type StepStore,
} from '@berth/core/driver';
import { accessFix } from './access-refused.js';
import { listAttempts } from './attempts.js';
import { backfillBackend } from './backfills.js';
import { claim } from './claim.js';
import { openContext } from './connect.js';
import { DRIVER, type NatsContext } from './context.js';
import { deleteById } from './delete.js';
import { insertOne, lookUpHolder } from './enqueue.js';
import { enqueueAdvancing } from './enqueue-advancing.js';
import { enqueueMany } from './enqueue-many.js';
import { createEventStore } from './events.js';
import { extendMany } from './extend-many.js';
import { createLeaseStore } from './leases.js';
import { lifecycleEnd, readLifecycle } from './lifecycle-read.js';
import { appendLogs, listLogs } from './logs.js';
import { createMarkStore } from './marks.js';
import { DEFAULT_NATS_SERVERS, type NatsDriverOptions, screenOptions } from './nats-options.js';
import { cancel, get, list, promote, stats } from './operator.js';
import { listPaused, pause, resume } from './pause.js';
import { progress } from './progress.js';
import { purge } from './purge.js';
import { requeue } from './requeue.js';
import { scheduleBackend } from './schedules.js';
import { splitCredentials } from './server-credentials.js';
import { screenServers } from './servers.js';
import { ack, ackMany, extend, nack, nackMany, suspend } from './settle.js';
import { createStepStore } from './steps.js';

/** The step, event and lease stores of a connected context, made once. */
const stores = new WeakMap<
  NatsContext,
  { steps: StepStore; events: EventBackend; leases: LeaseStore; marks: MarkStore }
>();

function storesOf(context: NatsContext) {
  let made = stores.get(context);
  if (made === undefined) {
    made = {
      steps: createStepStore(context),
      events: createEventStore(context),
      leases: createLeaseStore(context),
      marks: createMarkStore(context),
    };
    stores.set(context, made);
  }
  return made;
}

/** Runs a backend call so a NATS failure leaves it as DRIVER_UNAVAILABLE naming the operation. */
const guard =
  <A extends unknown[], R>(operation: string, call: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    try {
      return await call(...args);
    } catch (error) {
      if (isBerthError(error)) throw error;
      const fix = accessFix(error);
      throw driverUnavailable({
        driver: DRIVER,
        operation,
        cause: error,
        ...(fix === undefined ? {} : { fix }),
      });
    }
  };

/**
 * The Berth driver over NATS JetStream (2.9 and later; 2.9.21 and later for replicated buckets):
 * every change the contract calls atomic lands through ONE conditional write of one key.
 * Connects on first use.
 */
export function createNatsDriver(options: NatsDriverOptions = {}): Driver {
  const { base, limit, timeoutMs, replicas, markerGraceMs, subjects } = screenOptions(options);
  const screened = screenServers(options.servers);
  const { servers, credentials } =
    screened === undefined ? { servers: undefined, credentials: {} } : splitCredentials(screened);
  const { clock } = base;
  const owned = options.connection === undefined;
  let opening: Promise<NatsContext> | undefined;
  let closed = false;

  const ready = (): Promise<NatsContext> => {
    if (closed) return Promise.reject(new Error('the driver was closed'));
    opening ??= openContext({
      servers: servers ?? (options.connection === undefined ? DEFAULT_NATS_SERVERS : undefined),
      credentials,
      connection: options.connection,
      subjects,
      clock,
      hooks: base.hooks,
      replicas,
      timeoutMs,
      markerGraceMs,
      lifecycleRetention: base.lifecycleRetention,
    }).catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };

  /** A backend call on the connected context, guarded. */
  const on = <A extends unknown[], R>(
    operation: string,
    call: (context: NatsContext, ...args: A) => Promise<R>,
  ) => guard(operation, async (...args: A) => call(await ready(), ...args));

  const backend: DriverBackend = {
    name: DRIVER,
    clock,
    maxPayloadBytes: limit,
    cursorSecret: base.cursorSecret,
    hooks: base.hooks,
    insert: on('enqueue', insertOne),
    liveHolder: on('enqueue', lookUpHolder),
    enqueueMarked: on('enqueue', enqueueAdvancing),
    enqueueMany: on('enqueue a batch', enqueueMany),
    claim: on('claim', claim),
    ack: on('ack', ack),
    nack: on('nack', nack),
    suspend: on('suspend', suspend),
    extend: on('extend a lease', extend),
    progress: on('report progress', progress),
    ackMany: on('ack a batch', ackMany),
    nackMany: on('nack a batch', nackMany),
    extendMany: on('extend a batch', extendMany),
    get: on('get a job', get),
    cancel: on('cancel a job', cancel),
    promote: on('promote a job', promote),
    delete: on('delete a job', deleteById),
    requeue: on('requeue a job', requeue),
    list: on('list jobs', list),
    stats: on('read stats', stats),
    purge: on('purge jobs', purge),
    logs: {
      append: on('append job logs', appendLogs),
      list: on('list job logs', listLogs),
    },
    steps: {
      get: on('read a step', (context, runId: string, name: string) =>
        storesOf(context).steps.get(runId, name),
      ),
      put: on('write a step', (context, record, fence) =>
        storesOf(context).steps.put(record, fence),
      ),
      list: on('list steps', (context, runId: string) => storesOf(context).steps.list(runId)),
    },
    attempts: { list: on('list attempts', listAttempts) },
    events: {
      publish: on('publish an event', (context, name, payload, ttlMs) =>
        storesOf(context).events.publish(name, payload, ttlMs),
      ),
      find: on('find an event', (context, name, opts) => storesOf(context).events.find(name, opts)),
      list: on('list events', (context, name?: string) => storesOf(context).events.list(name)),
      purgeExpired: on('purge expired events', (context, opts?: { readonly limit?: number }) =>
        storesOf(context).events.purgeExpired(opts),
      ),
    },
    leases: {
      acquire: on('acquire a lease', (context, name, holder, ttl) =>
        storesOf(context).leases.acquire(name, holder, ttl),
      ),
      renew: on('renew a lease', (context, name, holder, ttl) =>
        storesOf(context).leases.renew(name, holder, ttl),
      ),
      release: on('release a lease', (context, name, holder) =>
        storesOf(context).leases.release(name, holder),
      ),
      acquireSlot: on('acquire a slot', (context, key, slots, holder, ttl) =>
        storesOf(context).leases.acquireSlot(key, slots, holder, ttl),
      ),
      renewSlot: on('renew a slot', (context, key, holder, ttl) =>
        storesOf(context).leases.renewSlot(key, holder, ttl),
      ),
      releaseSlot: on('release a slot', (context, key, holder) =>
        storesOf(context).leases.releaseSlot(key, holder),
      ),
      holder: on('read a lease', (context, name: string) => storesOf(context).leases.holder(name)),
    },
    marks: {
      get: on('read a mark', (context, name: string) => storesOf(context).marks.get(name)),
      advance: on('advance a mark', (context, name: string, value: number) =>
        storesOf(context).marks.advance(name, value),
      ),
    },
    lifecycle: {
      read: on('read lifecycle events', readLifecycle),
      end: on('read the lifecycle end', lifecycleEnd),
      // The stream keeps at most lifecycleRetention messages, dropping the oldest as it writes.
      trim: async () => 0,
    },
    pauses: {
      pause: on('pause a queue', pause),
      resume: on('resume a queue', resume),
      list: on('list paused queues', listPaused),
    },
    backfills: backfillBackend(on),
    schedules: scheduleBackend(on),
    // Nothing to migrate: the driver creates its streams on first use. One round trip shows
    // the server answers and every stream is there.
    check: on('check the backend', async (context) => {
      await Promise.all([
        context.jsm.streams.info(context.subjects.jobsStream),
        context.jsm.streams.info(context.subjects.auxStream),
        context.jsm.streams.info(context.subjects.lifecycleStream),
      ]);
    }),
    subscribe: on('subscribe', (context, queues, onWork, onCancelled) =>
      context.wake.subscribe(queues, onWork, onCancelled),
    ),
    watchSettles: on('watch settles', (context, onSettled) => context.settles.watch(onSettled)),
    async close() {
      if (closed) return;
      closed = true;
      const context = await opening?.catch(() => undefined);
      if (context === undefined) return;
      context.mirror.stop();
      context.repair.stop();
      context.stopStatus();
      context.wake.close();
      context.settles.close();
      if (owned) await context.nc.close();
    },
  };
  return createDriver(backend);
}
