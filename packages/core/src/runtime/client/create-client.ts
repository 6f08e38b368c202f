import { backfillControl } from '../../backfills/control.js';
import type { Driver } from '../../contract/driver.js';
import type { PublishOptions } from '../../contract/events.js';
import { DEFAULT_QUEUE, MAX_ENQUEUE_BATCH } from '../../contract/limits.js';
import type { EnqueueRequest, EnqueueResult, Json } from '../../contract/records.js';
import { configInvalid } from '../../errors/refusals.js';
import { screenArray, screening, screenObject } from '../../screen/values.js';
import { announceDue } from '../due-hub.js';
import type { AnyEventDefinition } from '../events/define-event.js';
import { enqueueFlow } from '../flows/enqueue-flow.js';
import type { AnyJobContract } from '../jobs/job-types.js';
import { validatePayload } from '../jobs/validate-payload.js';
import { tailLifecycle } from '../lifecycle/tail.js';
import { loadOtel } from '../otel/load-otel.js';
import { producerSpanSoon } from '../otel/producer-span.js';
import { scheduleControl } from '../schedules/schedule-control.js';
import { attemptHistory } from './attempts.js';
import type { Client, ClientOptions, EnqueueItem, EnqueueOptions } from './client-types.js';
import { screenJobDefinition, toEnqueueRequest } from './enqueue-request.js';
import { jobHandle, typedRecord } from './job-handle.js';
import {
  readClientOptions,
  screenEnqueueAndWait,
  screenEvent,
  screenJob,
  screenReadOptions,
} from './screen-client.js';
import { raiseGeneration } from './supersede.js';

/** A job this process's workers claim when it is due (a delayed one too), not at a poll. */
function announceDelayed(driver: Driver, request: EnqueueRequest, result: EnqueueResult): void {
  if (result.deduped) return;
  announceDue(driver, request.queue ?? DEFAULT_QUEUE, request.runAt ?? driver.clock.now());
}

/** The batch as plain items: an array without holes of objects, at most MAX_ENQUEUE_BATCH. */
const screenItems = screening('items', (items: unknown): EnqueueItem[] =>
  screenArray('items', items, MAX_ENQUEUE_BATCH).map(
    (item, index) => ({ ...screenObject(`items[${index}]`, item) }) as unknown as EnqueueItem,
  ),
);

/** The app's side of the queue: typed enqueues and event publishes over one driver. */
export function createClient(options: ClientOptions): Client {
  const { driver, known } = readClientOptions(options);
  void loadOtel();

  const check = (given: unknown, field = 'job'): AnyJobContract => {
    const job = screenJobDefinition(given, field);
    if (known !== undefined && !known.has(job.name)) {
      throw configInvalid({
        option: 'jobs',
        reason: `does not list job ${JSON.stringify(job.name)}, which this client was asked to enqueue`,
        allowed: 'must list every job the client enqueues, or be left out',
        example: 'createClient({ driver, jobs: [sendEmail, resizeImage] }) listing this job too',
      });
    }
    return job;
  };

  const enqueue: Client['enqueue'] = async (job, payload, enqueueOptions) => {
    const span = await producerSpanSoon();
    try {
      const definition = check(job);
      const request = await toEnqueueRequest(
        driver.clock,
        definition,
        payload,
        enqueueOptions,
        span?.traceparent,
      );
      span?.sentTo([request.queue ?? DEFAULT_QUEUE], [request.name]);
      const result = await driver.enqueue(request);
      await raiseGeneration(driver, result);
      announceDelayed(driver, request, result);
      span?.end({ ids: [result.id] });
      return result;
    } catch (error) {
      span?.end({ error });
      throw error;
    }
  };

  // A declared event's payload is checked (and shaped) by its schema; a bare name, or an event
  // without a schema, hands the payload to the driver's screen untouched (awaiting it would run
  // a Proxy's trap or a getter before any screen sees it).
  async function publish(
    given: string | AnyEventDefinition,
    payload: unknown,
    publishOptions?: PublishOptions,
  ) {
    const event = screenEvent(given);
    if (typeof event === 'string') {
      return driver.events.publish(event, payload as Json, publishOptions);
    }
    const value =
      event.schema === undefined ? payload : await validatePayload(event, payload, 'event');
    return driver.events.publish(event.name, (value ?? null) as Json, publishOptions);
  }

  return {
    driver,
    enqueue,
    async enqueueAndWait(job, payload, options) {
      const { enqueue: enqueueOptions, wait } = screenEnqueueAndWait(options);
      const { id } = await enqueue(job, payload, enqueueOptions);
      const { tenantId } = enqueueOptions as EnqueueOptions;
      const byId = tenantId === undefined ? {} : { tenantId };
      return jobHandle(driver, job as unknown as AnyJobContract, id, byId).result(wait) as never;
    },
    handle: (job, id, options) =>
      jobHandle(driver, screenJob(job), id, screenReadOptions(options)) as never,
    get: (job, id, options) =>
      typedRecord(driver, screenJob(job), id, screenReadOptions(options)) as never,
    attempts: (id, options) => attemptHistory(driver, id, screenReadOptions(options)),
    async enqueueMany(items) {
      const span = await producerSpanSoon();
      try {
        const list = screenItems(items);
        const requests = await Promise.all(
          list.map((item, index) =>
            toEnqueueRequest(
              driver.clock,
              check(item.job, `items[${index}].job`),
              item.payload,
              item.options,
              span?.traceparent,
            ),
          ),
        );
        span?.sentTo(
          requests.map((request) => request.queue ?? DEFAULT_QUEUE),
          requests.map((request) => request.name),
        );
        const results = await driver.enqueueMany(requests);
        await Promise.all(results.map((result) => raiseGeneration(driver, result)));
        for (const [index, result] of results.entries()) {
          const request = requests[index];
          if (request !== undefined) announceDelayed(driver, request, result);
        }
        span?.end({ ids: results.map((result) => result.id) });
        return results;
      } catch (error) {
        span?.end({ error });
        throw error;
      }
    },
    enqueueFlow: (flow) => enqueueFlow(driver, check, flow),
    publish: publish as Client['publish'],
    pause: (queue, pauseOptions) => driver.pauses.pause(queue, pauseOptions),
    async resume(queue, pauseOptions) {
      const resumed = await driver.pauses.resume(queue, pauseOptions);
      // This process's workers look at once even on a driver without a wake subscription.
      announceDue(driver, resumed.queue, driver.clock.now());
      return resumed;
    },
    paused: (pauseOptions) => driver.pauses.list(pauseOptions),
    logs: (id, logOptions) => driver.logs.list(id, logOptions),
    backfills: backfillControl(driver),
    schedules: scheduleControl(driver),
    lifecycle: {
      read: (request) => driver.lifecycle.read(request),
      end: () => driver.lifecycle.end(),
      tail: (tailOptions) => tailLifecycle(driver, tailOptions),
    },
  };
}
