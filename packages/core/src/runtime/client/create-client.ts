import { configInvalid } from '../../errors/refusals.js';
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
      return driver.enqueue(
        await toEnqueueRequest(driver.clock, definition, payload, enqueueOptions),
      );
    },
    async enqueueMany(items) {
      const list = items as readonly EnqueueItem[];
      const requests = await Promise.all(
        list.map((item) =>
          toEnqueueRequest(driver.clock, check(item.job), item.payload, item.options),
        ),
      );
      return driver.enqueueMany(requests);
    },
    publish: (event, payload, publishOptions) =>
      driver.events.publish(event, payload, publishOptions),
  };
}
