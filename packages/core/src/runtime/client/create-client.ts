import type { Driver } from '../../contract/driver.js';
import type { PublishOptions } from '../../contract/events.js';
import { DEFAULT_QUEUE, MAX_ENQUEUE_BATCH } from '../../contract/limits.js';
import type { EnqueueRequest, EnqueueResult, Json } from '../../contract/records.js';
import { configInvalid } from '../../errors/refusals.js';
import { screenArray, screening, screenObject } from '../../screen/values.js';
import { announceDue } from '../due-hub.js';
import type { AnyEventDefinition } from '../events/define-event.js';
import type { AnyJobContract } from '../jobs/job-types.js';
import { validatePayload } from '../jobs/validate-payload.js';
import { loadOtel } from '../otel/load-otel.js';
import type { Client, ClientOptions, EnqueueItem } from './client-types.js';
import { screenJobDefinition, toEnqueueRequest } from './enqueue-request.js';
import { jobHandle, typedRecord } from './job-handle.js';

function knownJobs(jobs: readonly AnyJobContract[] | undefined): Set<string> | undefined {
  if (jobs === undefined) return undefined;
  const names = new Set<string>();
  for (const job of jobs) {
    if (names.has(job.name)) {
      throw configInvalid({
        option: 'jobs',
        reason: `names job ${JSON.stringify(job.name)} twice`,
        allowed: 'must list each job the client enqueues once, or be left out',
        example: 'createClient({ driver, jobs: [sendEmail, resizeImage] })',
      });
    }
    names.add(job.name);
  }
  return names;
}

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
  const { driver } = options;
  const known = knownJobs(options.jobs);
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
    const definition = check(job);
    const request = await toEnqueueRequest(driver.clock, definition, payload, enqueueOptions);
    const result = await driver.enqueue(request);
    announceDelayed(driver, request, result);
    return result;
  };

  // A declared event's payload is checked (and shaped) by its schema; a bare name is stored as is.
  async function publish(
    event: string | AnyEventDefinition,
    payload: unknown,
    publishOptions?: PublishOptions,
  ) {
    if (typeof event === 'string') {
      return driver.events.publish(event, payload as Json, publishOptions);
    }
    const value = await validatePayload(event, payload, 'event');
    return driver.events.publish(event.name, (value ?? null) as Json, publishOptions);
  }

  return {
    driver,
    enqueue,
    async enqueueAndWait(job, payload, options = {}) {
      const { timeoutMs, signal, ...enqueueOptions } = options;
      const { id } = await enqueue(job, payload, enqueueOptions);
      const byId = options.tenantId === undefined ? {} : { tenantId: options.tenantId };
      const wait = {
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(signal === undefined ? {} : { signal }),
      };
      return jobHandle(driver, job as unknown as AnyJobContract, id, byId).result(wait) as never;
    },
    handle: (job, id, options) =>
      jobHandle(driver, job as unknown as AnyJobContract, id, options) as never,
    get: (job, id, options) =>
      typedRecord(driver, job as unknown as AnyJobContract, id, options) as never,
    async enqueueMany(items) {
      const list = screenItems(items);
      const requests = await Promise.all(
        list.map((item, index) =>
          toEnqueueRequest(
            driver.clock,
            check(item.job, `items[${index}].job`),
            item.payload,
            item.options,
          ),
        ),
      );
      const results = await driver.enqueueMany(requests);
      for (const [index, result] of results.entries()) {
        const request = requests[index];
        if (request !== undefined) announceDelayed(driver, request, result);
      }
      return results;
    },
    publish: publish as Client['publish'],
  };
}
