import { configFixProblem } from '@berth/test-servers';
import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  createClient,
  createDriver,
  createRetention,
  createScheduler,
  createWorker,
  DEFAULT_BACKOFF,
  declareJob,
  defineEvent,
  defineJob,
  implementJob,
  isBerthError,
  slotJobId,
  slotKey,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';

const run = () => 'ran';
const job = defineJob({ name: 'app.job', run });
const contract = declareJob({ name: 'app.contract' });
const throwingGetter = () =>
  Object.defineProperty({}, 'boom', {
    enumerable: true,
    get() {
      throw new Error('getter ran');
    },
  });
const throwingProxy = () =>
  new Proxy(
    {},
    {
      get() {
        throw new Error('trap ran');
      },
    },
  );

/** The refusal `call` threw or rejected with: a BerthError, never a raw error. */
async function refusal(call: () => unknown) {
  try {
    await call();
  } catch (error) {
    if (!isBerthError(error)) throw new Error(`raw ${String(error)}`, { cause: error });
    const meta = error.meta as { field?: string; option?: string };
    if (isBerthError(error, 'CONFIG_INVALID')) {
      expect(configFixProblem(error.meta.option, error.fix), error.fix).toBeUndefined();
    }
    return { code: error.code, named: meta.field ?? meta.option };
  }
  throw new Error('expected a refusal');
}

describe('the client’s calls refuse bad arguments with JOB_INVALID naming them, before any write', () => {
  const { driver } = memoryOnManualClock();
  const client = createClient({ driver });
  const event = defineEvent({ name: 'app.event' });
  const missing = '0b9c3c53-6f3e-4a43-9d5d-3f3f2b6d7e01';

  it.each([
    ['publish(null, …)', () => client.publish(null as never, {}), 'event'],
    ['publish(undefined, …)', () => client.publish(undefined as never, {}), 'event'],
    ['publish of a number', () => client.publish(5 as never, {}), 'event'],
    ['publish of an object without a name', () => client.publish({} as never, {}), 'event'],
    ['publish of a Proxy', () => client.publish(throwingProxy() as never, {}), 'event'],
    [
      'publish of a Proxy payload',
      () => client.publish(event, throwingProxy() as never),
      'event payload',
    ],
    [
      'enqueueAndWait with null options',
      () => client.enqueueAndWait(job, 1, null as never),
      'options',
    ],
    [
      'enqueueAndWait with a negative timeout',
      () => client.enqueueAndWait(job, 1, { timeoutMs: -1 }),
      'timeoutMs',
    ],
    [
      'enqueueAndWait with an infinite timeout',
      () => client.enqueueAndWait(job, 1, { timeoutMs: Number.POSITIVE_INFINITY }),
      'timeoutMs',
    ],
    [
      'enqueueAndWait with a signal that is none',
      () => client.enqueueAndWait(job, 1, { signal: 5 as never }),
      'signal',
    ],
    [
      'enqueueAndWait with a throwing getter',
      () => client.enqueueAndWait(job, 1, throwingGetter() as never),
      'options',
    ],
    ['get of a null job', () => client.get(null as never, missing), 'job'],
    ['handle of a null job', () => client.handle(null as never, missing).get(), 'job'],
    ['handle with null options', () => client.handle(job, missing, null as never).get(), 'options'],
    [
      'result with a timeout that is text',
      () => client.handle(job, missing).result({ timeoutMs: 'soon' as never }),
      'timeoutMs',
    ],
    [
      'result with a Proxy',
      () => client.handle(job, missing).result(throwingProxy() as never),
      'options',
    ],
  ])('%s', async (_title, call, named) => {
    expect(await refusal(call)).toEqual({ code: 'JOB_INVALID', named });
    expect((await driver.list()).jobs).toEqual([]);
    expect(await driver.events.list()).toEqual([]);
  });
});

describe('what an app builds with refuses bad options with CONFIG_INVALID naming them', () => {
  const { driver } = memoryOnManualClock();
  const worker = { driver, jobs: [job], concurrency: 1, visibilityTimeoutMs: 30_000 };
  const schedule = { name: 'nightly', cron: '0 3 * * *', job };
  const retention = { driver, intervalMs: 60_000, keep: { completed: 1_000 } };

  it.each([
    ['createClient(null)', () => createClient(null as never), 'options'],
    ['createClient without a driver', () => createClient({} as never), 'driver'],
    ['createClient with jobs null', () => createClient({ driver, jobs: null as never }), 'jobs'],
    [
      'createClient with jobs [null]',
      () => createClient({ driver, jobs: [null] as never }),
      'jobs',
    ],
    ['defineJob(null)', () => defineJob(null as never), 'options'],
    ['defineJob with a throwing getter', () => defineJob(throwingGetter() as never), 'options'],
    [
      'defineJob with schema null',
      () => defineJob({ name: 'x', run, schema: null as never }),
      'job x: schema',
    ],
    [
      'defineJob with concurrency null',
      () => defineJob({ name: 'x', run, concurrency: null as never }),
      'job x: concurrency',
    ],
    [
      'defineJob with rateLimit null',
      () => defineJob({ name: 'x', run, rateLimit: null as never }),
      'job x: rateLimit',
    ],
    [
      'defineJob with retry 5',
      () => defineJob({ name: 'x', run, retry: 5 as never }),
      'job x: retry',
    ],
    [
      'defineJob with backoff null',
      () => defineJob({ name: 'x', run, retry: { backoff: null as never } }),
      'job x: retry.backoff',
    ],
    [
      'defineJob with a null-prototype timeout',
      () => defineJob({ name: 'x', run, timeout: Object.create(null) }),
      'job x: timeout',
    ],
    ['declareJob(undefined)', () => declareJob(undefined as never), 'options'],
    ['implementJob(null, …)', () => implementJob(null as never, { run }), 'contract'],
    ['implementJob(…, null)', () => implementJob(contract, null as never), 'implementation'],
    [
      'implementJob with onSettled 1',
      () => implementJob(contract, { run, onSettled: 1 as never }),
      'job app.contract: onSettled',
    ],
    ['defineEvent(null)', () => defineEvent(null as never), 'options'],
    ['createWorker(null)', () => createWorker(null as never), 'options'],
    [
      'createWorker with queues null',
      () => createWorker({ ...worker, queues: null as never }),
      'queues',
    ],
    [
      'createWorker with jobs [null]',
      () => createWorker({ ...worker, jobs: [null] as never }),
      'jobs',
    ],
    [
      'createWorker with a contract for a job',
      () => createWorker({ ...worker, jobs: [contract] as never }),
      'jobs',
    ],
    [
      'createWorker with a null-prototype concurrency',
      () => createWorker({ ...worker, concurrency: Object.create(null) }),
      'concurrency',
    ],
    ['createWorker with logger 5', () => createWorker({ ...worker, logger: 5 as never }), 'logger'],
    ['createWorker with workerId ""', () => createWorker({ ...worker, workerId: '' }), 'workerId'],
    ['createScheduler(null)', () => createScheduler(null as never), 'options'],
    [
      'createScheduler with driver null',
      () => createScheduler({ driver: null as never, schedules: [] }),
      'driver',
    ],
    [
      'createScheduler with schedules null',
      () => createScheduler({ driver, schedules: null as never }),
      'schedules',
    ],
    [
      'createScheduler with schedules [null]',
      () => createScheduler({ driver, schedules: [null] as never }),
      'schedules[0]',
    ],
    [
      'createScheduler with job null',
      () => createScheduler({ driver, schedules: [{ ...schedule, job: null as never }] }),
      'schedules[0].job',
    ],
    [
      'createScheduler with catchUp null',
      () => createScheduler({ driver, schedules: [], catchUp: null as never }),
      'catchUp',
    ],
    ['createRetention(null)', () => createRetention(null as never), 'options'],
    [
      'createRetention with a null-prototype intervalMs',
      () => createRetention({ ...retention, intervalMs: Object.create(null) }),
      'intervalMs',
    ],
    [
      'createRetention with keep 5',
      () => createRetention({ ...retention, keep: 5 as never }),
      'keep',
    ],
    [
      'createRetention with a throwing keep',
      () => createRetention({ ...retention, keep: throwingProxy() as never }),
      'options',
    ],
    ['backoffDelay(null, 1)', () => backoffDelay(null as never, 1), 'backoff'],
    [
      'backoffDelay with a symbol attempt',
      () => backoffDelay(DEFAULT_BACKOFF, Symbol('a') as never),
      'attempt',
    ],
    ['createDriver(null)', () => createDriver(null as never), 'backend'],
  ])('%s', async (_title, call, named) => {
    expect(await refusal(call)).toEqual({ code: 'CONFIG_INVALID', named });
  });

  it('a throwing read keeps what it threw as the cause', async () => {
    try {
      defineJob(throwingGetter() as never);
    } catch (error) {
      expect((error as Error).cause).toBeInstanceOf(Error);
      return;
    }
    throw new Error('expected a refusal');
  });
});

describe('the scheduler’s slot helpers refuse what is no schedule name or instant', () => {
  it.each([
    ['slotJobId(null, 0)', () => slotJobId(null as never, 0), 'schedule'],
    ['slotKey with a NaN slot', () => slotKey('nightly', Number.NaN), 'slot'],
    ['slotKey with an object slot', () => slotKey('nightly', {} as never), 'slot'],
  ])('%s', async (_title, call, named) => {
    expect(await refusal(call)).toEqual({ code: 'JOB_INVALID', named });
  });
});
