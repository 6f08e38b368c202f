import {
  type BaseDriverOptions,
  type Clock,
  configInvalid,
  createDriver,
  type Driver,
  type DriverBackend,
  type DriverHooks,
  driverClosed,
  driverUnavailable,
  isBerthError,
  resolveBaseOptions,
} from '@berth/core/driver';
import { listAttempts } from './attempts.js';
import {
  commitBackfill,
  getBackfill,
  listBackfills,
  startBackfill,
  transitionBackfill,
} from './backfills.js';
import { claim } from './claim.js';
import { deleteJob } from './delete.js';
import { enqueueMany, insert, liveHolder } from './enqueue.js';
import { enqueueAdvancing } from './enqueue-advancing.js';
import { findEvent, listEvents, publish, purgeExpired } from './events.js';
import { extendMany } from './extend-many.js';
import {
  acquire,
  acquireSlot,
  readHolder,
  release,
  releaseSlot,
  renew,
  renewSlot,
} from './leases.js';
import { list, purge, stats } from './list.js';
import { appendLogs, listLogs } from './logs.js';
import { advanceMark, getMark } from './marks.js';
import { registerMeter } from './meter.js';
import { cancel, get, promote, requeue } from './operator.js';
import { listPaused, pause, resume } from './pause.js';
import { progress } from './progress.js';
import { ack, ackMany, extend, nack, nackMany, suspend } from './settle.js';
import { watchSettles } from './settle-notices.js';
import { getStep, listSteps, putStep } from './steps.js';
import { createStore, DRIVER_NAME, type Store } from './store.js';
import { subscribe } from './wake.js';

/**
 * The base options (`clock`, `hooks`, `maxPayloadBytes`, `cursorSecret`: see BaseDriverOptions),
 * and where the store comes from. Every memory driver derives its default cursor secret alike,
 * so drivers over one store (`sameStoreAs`) read each other's cursors.
 */
export interface MemoryDriverOptions extends BaseDriverOptions {
  /**
   * Another memory driver whose in-process store this one opens: two drivers, each with its own
   * clock, hooks and close, over ONE store, as two processes over one database. Calls of both
   * still apply one at a time. The conformance kit's `sibling` uses it.
   */
  readonly sameStoreAs?: Driver;
}

const stores = new WeakMap<Driver, Store>();

/** The store `options` asks for: a fresh one, or a view of another driver's with its own clock. */
function storeFor(
  options: MemoryDriverOptions,
  clock: Clock,
  hooks: DriverHooks,
  lifecycleRetention: number,
): Store {
  if (options.sameStoreAs === undefined) return createStore(clock, hooks, lifecycleRetention);
  const shared = stores.get(options.sameStoreAs);
  if (shared === undefined) {
    throw configInvalid({
      option: 'sameStoreAs',
      reason: 'is not a driver made by createMemoryDriver',
      allowed: 'must be a driver made by createMemoryDriver',
      example: 'createMemoryDriver({ sameStoreAs: first })',
    });
  }
  // Everything but the clock, the seams and the closed flag is shared by reference.
  return { ...shared, clock, hooks, closed: false };
}

/**
 * Runs one backend call: refused DRIVER_CLOSED once the store is closed, and any non-Berth error
 * (a bug, a throwing hook) becomes DRIVER_UNAVAILABLE naming the operation.
 */
function operate<T>(store: Store, operation: string, call: () => T | Promise<T>): Promise<T> {
  const fail = (error: unknown): never => {
    if (isBerthError(error)) throw error;
    throw driverUnavailable({ driver: DRIVER_NAME, operation, cause: error });
  };
  try {
    if (store.closed) {
      throw driverClosed({ driver: DRIVER_NAME, operation });
    }
    return Promise.resolve(call()).catch(fail);
  } catch (error) {
    return Promise.reject(isBerthError(error) ? error : fail(error));
  }
}

/**
 * The whole contract in memory: the embedded default and the reference every other driver is
 * compared with. Each change runs synchronously between awaits, which makes it atomic; the
 * only awaits inside an operation are the race seams the contract places between two steps.
 */
export function createMemoryDriver(options: MemoryDriverOptions = {}): Driver {
  const base = resolveBaseOptions(DRIVER_NAME, DRIVER_NAME, options);
  const store = storeFor(options, base.clock, base.hooks, base.lifecycleRetention);
  const subscriptions = new Set<() => Promise<void>>();
  const run = <T>(operation: string, call: () => T | Promise<T>) => operate(store, operation, call);
  const backend: DriverBackend = {
    name: DRIVER_NAME,
    clock: store.clock,
    maxPayloadBytes: base.maxPayloadBytes,
    cursorSecret: base.cursorSecret,
    hooks: store.hooks,
    insert: (request) => run('enqueue', () => insert(store, request)),
    liveHolder: (request, holderId) => run('enqueue', () => liveHolder(store, request, holderId)),
    enqueueMarked: (request, mark) =>
      run('enqueue', async () => {
        await store.hooks.beforeMarkedEnqueue?.();
        return enqueueAdvancing(store, request, mark);
      }),
    enqueueMany: (requests) => run('enqueue a batch', () => enqueueMany(store, requests)),
    claim: (request) => run('claim', () => claim(store, request)),
    ack: (fence, ackOptions) => run('ack', () => ack(store, fence, ackOptions)),
    nack: (fence, nackOptions) => run('nack', () => nack(store, fence, nackOptions)),
    suspend: (fence, until) => run('suspend', () => suspend(store, fence, until)),
    extend: (fence, ms) => run('extend a lease', () => extend(store, fence, ms)),
    progress: (fence, value) => run('report progress', () => progress(store, fence, value)),
    ackMany: (items) => run('ack a batch', () => ackMany(store, items)),
    nackMany: (items) => run('nack a batch', () => nackMany(store, items)),
    extendMany: (items, ms) => run('extend a batch', () => extendMany(store, items, ms)),
    get: (id, byId) => run('get a job', () => get(store, id, byId)),
    cancel: (id, byId) => run('cancel a job', () => cancel(store, id, byId)),
    delete: (id, byId) => run('delete a job', () => deleteJob(store, id, byId)),
    promote: (id, byId) => run('promote a job', () => promote(store, id, byId)),
    requeue: (id, requeueOptions) => run('requeue a job', () => requeue(store, id, requeueOptions)),
    list: (request) => run('list jobs', () => list(store, request)),
    stats: () => run('read stats', () => stats(store)),
    purge: (request) => run('purge jobs', () => purge(store, request)),
    steps: {
      get: (runId, name) => run('read a step', () => getStep(store, runId, name)),
      put: (record, fence) => run('write a step', () => putStep(store, record, fence)),
      list: (runId) => run('list steps', () => listSteps(store, runId)),
    },
    attempts: {
      list: (id, byId) => run('list attempts', () => listAttempts(store, id, byId)),
    },
    events: {
      publish: (name, payload, ttlMs) =>
        run('publish an event', () => publish(store, name, payload, ttlMs)),
      find: (name, findOptions) => run('find an event', () => findEvent(store, name, findOptions)),
      list: (name) => run('list events', () => listEvents(store, name)),
      purgeExpired: (purgeOptions = {}) =>
        run('purge expired events', () => purgeExpired(store, purgeOptions)),
    },
    leases: {
      acquire: (name, holder, ttlMs) =>
        run('acquire a lease', () => acquire(store, name, holder, ttlMs)),
      renew: (name, holder, ttlMs) => run('renew a lease', () => renew(store, name, holder, ttlMs)),
      release: (name, holder) => run('release a lease', () => release(store, name, holder)),
      holder: (name) => run('read a lease', () => readHolder(store, name)),
      acquireSlot: (key, limit, holder, ttlMs) =>
        run('acquire a slot', () => acquireSlot(store, key, limit, holder, ttlMs)),
      renewSlot: (key, holder, ttlMs) =>
        run('renew a slot', () => renewSlot(store, key, holder, ttlMs)),
      releaseSlot: (key, holder) => run('release a slot', () => releaseSlot(store, key, holder)),
    },
    marks: {
      get: (name) => run('read a mark', () => getMark(store, name)),
      advance: (name, value) => run('advance a mark', () => advanceMark(store, name, value)),
    },
    pauses: {
      pause: (queue) => run('pause a queue', () => pause(store, queue)),
      resume: (queue) => run('resume a queue', () => resume(store, queue)),
      list: () => run('list paused queues', () => listPaused(store)),
    },
    backfills: {
      start: (start) => run('start a backfill', () => startBackfill(store, start)),
      get: (runId, tenantId) => run('read a backfill', () => getBackfill(store, runId, tenantId)),
      transition: (change) => run('change a backfill', () => transitionBackfill(store, change)),
      commit: (pass) => run('commit a backfill pass', () => commitBackfill(store, pass)),
      list: (request) => run('list backfills', () => listBackfills(store, request)),
    },
    schedules: {
      put: (schedule, revision) =>
        run('store a schedule', () => store.schedules.put(schedule, revision)),
      get: (name, tenantId) => run('read a schedule', () => store.schedules.get(name, tenantId)),
      remove: (name, tenantId, revision) =>
        run('remove a schedule', () => store.schedules.remove(name, tenantId, revision)),
      list: (request) => run('list schedules', () => store.schedules.list(request)),
      due: (request) => run('read due schedules', () => store.schedules.due(request)),
    },
    logs: {
      append: (fence, batch) => run('append job logs', () => appendLogs(store, fence, batch)),
      list: (jobId, listOptions) => run('list job logs', () => listLogs(store, jobId, listOptions)),
    },
    lifecycle: {
      read: (request) => run('read lifecycle events', () => store.lifecycle.read(request)),
      end: () => run('read the lifecycle end', () => store.lifecycle.end()),
      // The ring drops the oldest event as it writes one: nothing is ever left to trim.
      trim: () => run('trim lifecycle events', () => 0),
    },
    // Nothing to migrate and nothing to reach: an open store holds all it needs.
    check: () => run('check the backend', () => undefined),
    subscribe: (queues, onWork, onCancelled) =>
      run('subscribe', () => {
        const unsubscribe = subscribe(store, queues, onWork, onCancelled);
        subscriptions.add(unsubscribe);
        return async () => {
          subscriptions.delete(unsubscribe);
          await unsubscribe();
        };
      }),
    watchSettles: (onSettled) =>
      run('watch settles', () => {
        const unsubscribe = watchSettles(store, onSettled);
        subscriptions.add(unsubscribe);
        return async () => {
          subscriptions.delete(unsubscribe);
          await unsubscribe();
        };
      }),
    close: async () => {
      // Nothing to release but this driver's wake listeners (a store may be shared);
      // createDriver refuses every later call.
      store.closed = true;
      await Promise.all([...subscriptions].map((unsubscribe) => unsubscribe()));
      subscriptions.clear();
    },
  };
  const driver = createDriver(backend);
  registerMeter(driver, store.meter);
  stores.set(driver, store);
  return driver;
}
