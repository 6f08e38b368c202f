import type { Driver } from '../../contract/driver.js';
import type { ByIdOptions } from '../../contract/records.js';
import { describeReceived } from '../../errors/received.js';
import { configInvalid, jobInvalid } from '../../errors/refusals.js';
import {
  configArray,
  configDriver,
  configObject,
  configuring,
} from '../../internal/config-screen.js';
import { screenById } from '../../screen/operator.js';
import { screening, screenObject } from '../../screen/values.js';
import type { AnyEventDefinition } from '../events/define-event.js';
import type { AnyJobContract } from '../jobs/job-types.js';
import type { WaitOptions } from './await-result.js';
import type { ClientOptions } from './client-types.js';
import { screenJobDefinition } from './enqueue-request.js';

/*
 * The client's screens: what the app passes to a client call is checked once, before any
 * driver call, and refused with JOB_INVALID naming the argument (createClient's options with
 * CONFIG_INVALID), never a raw TypeError.
 */

const OPTIONS_EXAMPLE = 'const options = { driver, jobs: [sendEmail] }; createClient(options)';

/** createClient's options: the driver, and the jobs it may enqueue (each once), when given. */
export function readClientOptions(options: ClientOptions): {
  readonly driver: Driver;
  readonly known: ReadonlySet<string> | undefined;
} {
  return configuring('options', OPTIONS_EXAMPLE, () => {
    const input = configObject('options', options, OPTIONS_EXAMPLE);
    const driver = configDriver(input.driver, 'createClient({ driver: createMemoryDriver() })');
    if (input.jobs === undefined) return { driver, known: undefined };
    const allowed = 'must list each job the client enqueues once, or be left out';
    const example = 'createClient({ driver, jobs: [sendEmail, resizeImage] })';
    const names = new Set<string>();
    for (const [index, job] of configArray('jobs', input.jobs, example).entries()) {
      const name = (job as { name?: unknown } | null | undefined)?.name;
      const reason =
        typeof name !== 'string'
          ? `holds ${describeReceived(job)} at index ${index}, not a job made by defineJob`
          : names.has(name)
            ? `names job ${JSON.stringify(name)} twice`
            : undefined;
      if (reason !== undefined) throw configInvalid({ option: 'jobs', reason, allowed, example });
      names.add(name as string);
    }
    return { driver, known: names };
  });
}

/** An event `publish` takes: a bare name (the driver screens it) or a defineEvent definition. */
export const screenEvent = screening('event', (event: unknown): string | AnyEventDefinition => {
  if (typeof event === 'string') return event;
  const input = screenObject('event', event);
  const schema = input.schema as { '~standard'?: { validate?: unknown } } | undefined;
  if (
    typeof input.name !== 'string' ||
    (schema !== undefined && typeof schema?.['~standard']?.validate !== 'function')
  ) {
    throw jobInvalid('event', 'must be an event name or an event made by defineEvent');
  }
  return event as AnyEventDefinition;
});

/** The job of a typed read or wait (`get`, `handle`): a definition made by defineJob. */
export const screenJob = (job: unknown): AnyJobContract => screenJobDefinition(job, 'job');

/** The options of a by-id read, copied once (the driver screens `tenantId`). */
export const screenReadOptions = (options: unknown): ByIdOptions =>
  options === undefined ? {} : screenById(options as ByIdOptions);

function waitOptions(options: unknown): WaitOptions {
  if (options === undefined) return {};
  const { timeoutMs, signal } = screenObject('options', options);
  if (
    timeoutMs !== undefined &&
    (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs < 0)
  ) {
    throw jobInvalid('timeoutMs', 'must be a finite number of ms >= 0');
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw jobInvalid('signal', 'must be an AbortSignal');
  }
  return {
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(signal === undefined ? {} : { signal }),
  };
}

/** A wait's options (`timeoutMs`, `signal`), read once. */
export const screenWaitOptions = screening('options', waitOptions);

/** `enqueueAndWait`'s options split, read once: the enqueue's and the wait's. */
export const screenEnqueueAndWait = screening(
  'options',
  (options: unknown): { readonly enqueue: object; readonly wait: WaitOptions } => {
    if (options === undefined) return { enqueue: {}, wait: {} };
    const { timeoutMs, signal, ...enqueue } = screenObject('options', options);
    return { enqueue, wait: waitOptions({ timeoutMs, signal }) };
  },
);
