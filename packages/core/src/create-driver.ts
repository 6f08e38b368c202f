import type { Driver, DriverBackend } from './contract/driver.js';
import type { EventStore } from './contract/events.js';
import type { LeaseStore } from './contract/leases.js';
import { DEFAULT_EVENT_TTL_MS } from './contract/limits.js';
import type { MarkStore } from './contract/marks.js';
import type {
  EnqueueRequest,
  EnqueueResult,
  JobRecord,
  MarkedEnqueueRequest,
  MarkPassed,
} from './contract/records.js';
import type { StepStore } from './contract/steps.js';
import { runEnqueue } from './enqueue-protocol.js';
import { describeReceived } from './errors/received.js';
import { configInvalid, jobInvalid } from './errors/refusals.js';
import { configuring } from './internal/config-screen.js';
import { guarded } from './internal/guard.js';
import { screenedLifecycle } from './lifecycle-store.js';
import { toListPage } from './list-page.js';
import { screenedLogStore } from './logs-store.js';
import { parentAnnouncer } from './runtime/flows/announce-settled.js';
import { screenedBackfills } from './screen/backfills.js';
import { screenClaim } from './screen/claim.js';
import { createCursorCodec, defaultCursorSecret } from './screen/cursor.js';
import { screenEnqueue, screenEnqueueMany } from './screen/enqueue.js';
import { screenExtendItems } from './screen/extend-many.js';
import { screenList } from './screen/list.js';
import {
  screenById,
  screenId,
  screenPurge,
  screenPurgeExpired,
  screenRequeue,
} from './screen/operator.js';
import { screenedPauses } from './screen/pause.js';
import { screenProgress } from './screen/progress.js';
import { screenedSchedules } from './screen/schedules.js';
import {
  screenAck,
  screenAckItems,
  screenFence,
  screenNack,
  screenNackItems,
  screenSuspend,
  screenVisibility,
} from './screen/settle.js';
import {
  screenFind,
  screenLeaseName,
  screenMarkValue,
  screenPublish,
  screenSlotLimit,
  screenStep,
  screenSubscribeQueues,
  screenTtl,
} from './screen/stores.js';
import { screenUuid } from './screen/values.js';

/** The claim's rows landed whatever the callback does, so its error must not cost them. */
function reportBuried(
  onExhausted: ((rows: readonly JobRecord[]) => void) | undefined,
  rows: readonly JobRecord[],
): void {
  try {
    onExhausted?.(rows);
  } catch (error) {
    process.emitWarning(`berth: claim onExhausted threw: ${String(error)}`, 'BerthWarning');
  }
}

/** A backend names itself and its payload limit: anything else is no backend (CONFIG_INVALID). */
function checkBackend(backend: unknown): void {
  const example =
    "const backend = { name: 'memory', maxPayloadBytes: 1_048_576, ... }; createDriver(backend)";
  configuring('backend', example, () => {
    const given = backend as Partial<DriverBackend> | null | undefined;
    const { name, maxPayloadBytes } = given ?? {};
    if (typeof name === 'string' && name.length > 0 && typeof maxPayloadBytes === 'number') return;
    throw configInvalid({
      option: 'backend',
      reason: `is ${describeReceived(backend)}, not a driver backend`,
      allowed: 'must be a DriverBackend with its name and maxPayloadBytes',
      example,
    });
  });
}

/**
 * Makes the app-facing {@link Driver} from a backend: every input is screened here, once, so
 * every driver refuses bad input alike, and every raw backend error becomes DRIVER_UNAVAILABLE.
 * After `close()` (and for a call racing it) every call answers DRIVER_CLOSED with one text on
 * every driver; `close()` itself is idempotent.
 * Screening is synchronous and happens before the backend is called: a refused call sends nothing.
 */
export function createDriver(backend: DriverBackend): Driver {
  checkBackend(backend);
  // Set by the first close(): from then on every call answers DRIVER_CLOSED.
  let closing: Promise<void> | undefined;
  const isClosed = () => closing !== undefined;
  const run = <T>(operation: string, call: () => Promise<T>): Promise<T> =>
    guarded(backend.name, operation, call, isClosed);
  // Screens throw synchronously; inside `run` they reject like every other refusal.
  const limit = backend.maxPayloadBytes;
  const cursors = createCursorCodec(
    backend.cursorSecret ?? defaultCursorSecret(backend.name, backend.name),
    `create${backend.name.charAt(0).toUpperCase()}${backend.name.slice(1)}Driver`,
  );

  const steps: StepStore = {
    get: (runId, name) =>
      run('read a step', () =>
        backend.steps.get(screenUuid('runId', runId), screenLeaseName('step name', name)),
      ),
    put: (record, fence) =>
      run('write a step', () => backend.steps.put(screenStep(record, limit), screenFence(fence))),
    list: (runId) => run('list steps', () => backend.steps.list(screenUuid('runId', runId))),
  };

  // A parent's wake-up when a child settles outside a worker's settle (a cancel, a burial).
  const parents = parentAnnouncer((name, payload) =>
    run('publish an event', () => backend.events.publish(name, payload, DEFAULT_EVENT_TTL_MS)),
  );

  const events: EventStore = {
    publish: (name, payload, options) =>
      run('publish an event', () => {
        const screened = screenPublish(name, payload, options, limit);
        return backend.events.publish(
          screened.name,
          screened.payload,
          screened.options.ttl ?? DEFAULT_EVENT_TTL_MS,
        );
      }),
    find: (name, options) =>
      run('find an event', () => {
        const screened = screenFind(name, options);
        return backend.events.find(screened.name, screened.options);
      }),
    list: (name) =>
      run('list events', () =>
        backend.events.list(name === undefined ? undefined : screenLeaseName('event name', name)),
      ),
    purgeExpired: (options) =>
      run('purge expired events', () => backend.events.purgeExpired(screenPurgeExpired(options))),
  };

  const leases: LeaseStore = {
    acquire: (name, holder, ttlMs) =>
      run('acquire a lease', () =>
        backend.leases.acquire(
          screenLeaseName('lease name', name),
          screenLeaseName('holder', holder),
          screenTtl(ttlMs),
        ),
      ),
    renew: (name, holder, ttlMs) =>
      run('renew a lease', () =>
        backend.leases.renew(
          screenLeaseName('lease name', name),
          screenLeaseName('holder', holder),
          screenTtl(ttlMs),
        ),
      ),
    release: (name, holder) =>
      run('release a lease', () =>
        backend.leases.release(
          screenLeaseName('lease name', name),
          screenLeaseName('holder', holder),
        ),
      ),
    holder: (name) =>
      run('read a lease', () => backend.leases.holder(screenLeaseName('lease name', name))),
    acquireSlot: (key, slots, holder, ttlMs) =>
      run('acquire a slot', () =>
        backend.leases.acquireSlot(
          screenLeaseName('slot key', key),
          screenSlotLimit(slots),
          screenLeaseName('holder', holder),
          screenTtl(ttlMs),
        ),
      ),
    renewSlot: (key, holder, ttlMs) =>
      run('renew a slot', () =>
        backend.leases.renewSlot(
          screenLeaseName('slot key', key),
          screenLeaseName('holder', holder),
          screenTtl(ttlMs),
        ),
      ),
    releaseSlot: (key, holder) =>
      run('release a slot', () =>
        backend.leases.releaseSlot(
          screenLeaseName('slot key', key),
          screenLeaseName('holder', holder),
        ),
      ),
  };

  const marks: MarkStore = {
    get: (name) => run('read a mark', () => backend.marks.get(screenLeaseName('mark name', name))),
    advance: (name, value) =>
      run('advance a mark', () =>
        backend.marks.advance(screenLeaseName('mark name', name), screenMarkValue(value)),
      ),
  };

  // Without `advanceMark` a backend answers a job; the overloads say so to the caller.
  function enqueue(request: MarkedEnqueueRequest): Promise<EnqueueResult | MarkPassed>;
  function enqueue(request: EnqueueRequest): Promise<EnqueueResult>;
  function enqueue(
    request: EnqueueRequest | MarkedEnqueueRequest,
  ): Promise<EnqueueResult | MarkPassed> {
    return run('enqueue', () => runEnqueue(backend, screenEnqueue(request, limit)));
  }

  const subscribe = backend.subscribe?.bind(backend);
  const watchSettles = backend.watchSettles?.bind(backend);

  return {
    name: backend.name,
    clock: backend.clock,
    enqueue,
    enqueueMany: (requests) =>
      run('enqueue a batch', async () => {
        const screened = screenEnqueueMany(requests, limit);
        return screened.length === 0 ? [] : backend.enqueueMany(screened);
      }),
    claim: (request) =>
      run('claim', async () => {
        const outcome = await backend.claim(screenClaim(request));
        if (outcome.buried.length > 0) {
          reportBuried(request.onExhausted, outcome.buried);
          parents.buried(outcome.buried);
        }
        return outcome.claimed;
      }),
    ack: (fence, options) =>
      run('ack', () => backend.ack(screenFence(fence), screenAck(options, limit))),
    nack: (fence, options) =>
      run('nack', () => backend.nack(screenFence(fence), screenNack(options))),
    suspend: (fence, options) =>
      run('suspend', () => backend.suspend(screenFence(fence), screenSuspend(options))),
    extend: (fence, ms) =>
      run('extend a lease', () => backend.extend(screenFence(fence), screenVisibility(ms))),
    progress: (fence, value) =>
      run('report progress', () =>
        backend.progress(screenFence(fence), screenProgress(value, limit)),
      ),
    ackMany: (items) =>
      run('ack a batch', async () => {
        const screened = screenAckItems(items, limit);
        return screened.length === 0 ? [] : backend.ackMany(screened);
      }),
    nackMany: (items) =>
      run('nack a batch', async () => {
        const screened = screenNackItems(items);
        return screened.length === 0 ? [] : backend.nackMany(screened);
      }),
    extendMany: (items, ms) =>
      run('extend a batch of leases', async () => {
        const screened = screenExtendItems(items);
        const vt = screenVisibility(ms);
        return screened.length === 0 ? [] : backend.extendMany(screened, vt);
      }),
    get: (id, options) => run('get a job', () => backend.get(screenId(id), screenById(options))),
    cancel: (id, options) =>
      run('cancel a job', async () => {
        const cancelled = await backend.cancel(screenId(id), screenById(options));
        await parents.settled(cancelled, 'cancelled');
        return cancelled;
      }),
    promote: (id, options) =>
      run('promote a job', () => backend.promote(screenId(id), screenById(options))),
    delete: (id, options) =>
      run('delete a job', () => backend.delete(screenId(id), screenById(options))),
    requeue: (id, options) =>
      run('requeue a job', () => backend.requeue(screenId(id), screenRequeue(options))),
    list: (request) =>
      run('list jobs', async () => {
        const screened = screenList(request, cursors);
        return toListPage(screened, await backend.list(screened), cursors);
      }),
    stats: () => run('read stats', () => backend.stats()),
    purge: (request) => run('purge jobs', () => backend.purge(screenPurge(request))),
    check: () => run('check the backend', () => backend.check()),
    steps,
    attempts: {
      list: (id, options) =>
        run('list attempts', () => backend.attempts.list(screenId(id), screenById(options))),
    },
    events,
    leases,
    marks,
    pauses: screenedPauses(backend.pauses, run),
    backfills: screenedBackfills(backend.backfills, run),
    schedules: screenedSchedules(backend.schedules, limit, run),
    logs: screenedLogStore(backend, run),
    lifecycle: screenedLifecycle(backend, run),
    ...(subscribe === undefined
      ? {}
      : {
          subscribe: (
            queues: readonly string[],
            onWork: (queue: string) => void,
            onCancelled?: (jobId: string) => void,
          ) =>
            run('subscribe', () => {
              if (typeof onWork !== 'function') throw jobInvalid('onWork', 'must be a function');
              if (onCancelled !== undefined && typeof onCancelled !== 'function') {
                throw jobInvalid('onCancelled', 'must be a function, or be left out');
              }
              return subscribe(screenSubscribeQueues(queues), onWork, onCancelled);
            }),
        }),
    ...(watchSettles === undefined
      ? {}
      : {
          watchSettles: (onSettled: (jobIds: readonly string[]) => void) =>
            run('watchSettles', () => {
              if (typeof onSettled !== 'function') {
                throw jobInvalid('onSettled', 'must be a function');
              }
              return watchSettles(onSettled);
            }),
        }),
    close() {
      closing ??= guarded(backend.name, 'close', () => backend.close());
      return closing;
    },
  };
}
