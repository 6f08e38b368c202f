import type { Driver } from '../../contract/driver.js';
import { DEFAULT_QUEUE } from '../../contract/limits.js';
import type { EnqueueRequest, EnqueueResult } from '../../contract/records.js';
import { configInvalid } from '../../errors/refusals.js';
import { announceDue } from '../due-hub.js';
import type { AnyJobDefinition } from '../jobs/job-types.js';
import { loadOtel } from '../otel/load-otel.js';
import type { Client, ClientOptions, EnqueueItem } from './client-types.js';
import { toEnqueueRequest } from './enqueue-request.js';

function knownJobs(jobs: readonly AnyJobDefinition[] | undefined): Set<string> | undefined {
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

/** The app's side of the queue: typed enqueues and event publishes over one driver. */
export function createClient(options: ClientOptions): Client {
  const { driver } = options;
  const known = knownJobs(options.jobs);
  void loadOtel();

  const check = (job: AnyJobDefinition): AnyJobDefinition => {
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

  return {
    driver,
    async enqueue(job, payload, enqueueOptions) {
      const definition = check(job as unknown as AnyJobDefinition);
      const request = await toEnqueueRequest(driver.clock, definition, payload, enqueueOptions);
      const result = await driver.enqueue(request);
      announceDelayed(driver, request, result);
      return result;
    },
    async enqueueMany(items) {
      const list = items as readonly EnqueueItem[];
      const requests = await Promise.all(
        list.map((item) =>
          toEnqueueRequest(driver.clock, check(item.job), item.payload, item.options),
        ),
      );
      const results = await driver.enqueueMany(requests);
      for (const [index, result] of results.entries()) {
        const request = requests[index];
        if (request !== undefined) announceDelayed(driver, request, result);
      }
      return results;
    },
    publish: (event, payload, publishOptions) =>
      driver.events.publish(event, payload, publishOptions),
  };
}
