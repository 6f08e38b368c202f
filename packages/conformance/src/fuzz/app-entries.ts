import { types } from 'node:util';
import {
  createClient,
  createRetention,
  createScheduler,
  createWorker,
  type Driver,
  declareJob,
  defineEvent,
  defineJob,
  implementJob,
  isBerthError,
} from '@berth/core';
import type { ScreensWorld } from '../groups/answers/screens-world.js';

/** A public entry point called with built hostile arguments. */
export type Entry = (driver: Driver, args: readonly unknown[]) => Promise<unknown> | unknown;

// biome-ignore lint/suspicious/noExplicitAny: the fuzz calls every entry point with anything.
type Loose = any;

/** The job the client entry points enqueue. */
export const FUZZ_JOB = defineJob({ name: 'kit.fuzz', run: () => undefined });
/** The job of the world's rows (screens-world), for the typed reads and waits. */
const WORLD_JOB = defineJob({ name: 'kit.screens', run: () => undefined });
const FUZZ_EVENT = defineEvent({ name: 'kit.fuzz' });
const FUZZ_CONTRACT = declareJob({ name: 'kit.fuzz.contract', queue: 'fuzz' });

/**
 * A waiting call's clock: its timers fire at once and each moves its time ever further (by 1e10
 * times more each wait), so a wait of any finite timeout ends after a few looks at the job. The
 * driver's own clock, which its statements read, is untouched.
 */
function waitingClock(start: number) {
  let now = start;
  let jump = 60_000;
  return {
    now: () => now,
    setTimeout(fn: () => void, ms: number) {
      now += ms + jump;
      jump *= 1e10;
      setImmediate(fn);
      return () => {};
    },
  };
}

/** `driver` read through a {@link waitingClock}: a client over it never waits on the kit's clock. */
function waitsAtOnce(driver: Driver): Driver {
  const clock = waitingClock(driver.clock.now());
  return new Proxy(driver, {
    get(target, key) {
      if (key === 'clock') return clock;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A wait that ended (timed out, or its job settled failed): the call ran, it refused nothing. */
async function waited(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return await call();
  } catch (error) {
    if (isBerthError(error, 'JOB_WAIT_TIMEOUT') || isBerthError(error, 'JOB_FAILED')) {
      return error.code;
    }
    throw error;
  }
}

/**
 * `options` with the case's driver in it, when it is a plain object naming none: a break that
 * sets `driver` itself puts a hostile one in; anything else (a Proxy, null) goes as it is.
 */
function withDriver(options: unknown, driver: Driver): unknown {
  if (options === null || typeof options !== 'object' || types.isProxy(options)) return options;
  if (Array.isArray(options) || Object.hasOwn(options, 'driver')) return options;
  return Object.defineProperties(
    {},
    {
      ...Object.getOwnPropertyDescriptors(options),
      driver: { value: driver, enumerable: true, writable: true, configurable: true },
    },
  );
}

const client = (driver: Driver): Loose => createClient({ driver });

/** The app's entry points: the client's calls, and what builds jobs, events, workers and the rest. */
export const APP_ENTRIES: Readonly<Record<string, Entry>> = {
  'client.enqueue': (d, [a, b]) => client(d).enqueue(FUZZ_JOB, a, b),
  'client.enqueue(job)': (d, [a, b, c]) => client(d).enqueue(a, b, c),
  'client.enqueueMany': (d, [a]) => client(d).enqueueMany(a),
  'client.enqueueAndWait': (d, [a, b]) =>
    waited(() => client(waitsAtOnce(d)).enqueueAndWait(FUZZ_JOB, a, b)),
  'client.enqueueAndWait(job)': (d, [a, b, c]) =>
    waited(() => client(waitsAtOnce(d)).enqueueAndWait(a, b, c)),
  'client.publish': (d, [a, b, c]) => client(d).publish(a, b, c),
  'client.publish(event)': (d, [a, b]) => client(d).publish(FUZZ_EVENT, a, b),
  'client.get': (d, [a, b, c]) => client(d).get(a, b, c),
  'client.get(job)': (d, [a, b]) => client(d).get(WORLD_JOB, a, b),
  'client.handle': (d, [a, b, c]) => client(d).handle(a, b, c).get(),
  'client.handle(job).result': (d, [a, b, c]) =>
    waited(() => client(waitsAtOnce(d)).handle(WORLD_JOB, a, b).result(c)),
  'client.schedules.upsert': (d, [a]) => client(d).schedules.upsert(a as never),
  'client.schedules.pause': (d, [a, b]) => client(d).schedules.pause(a as never, b as never),
  'client.schedules.lastSlot': (d, [a, b]) => client(d).schedules.lastSlot(a as never, b as never),
  createClient: (d, [a]) => createClient(withDriver(a, d) as never),
  createWorker: (d, [a]) => createWorker(withDriver(a, d) as never),
  createScheduler: (d, [a]) => createScheduler(withDriver(a, d) as never),
  createRetention: (d, [a]) => createRetention(withDriver(a, d) as never),
  defineJob: (_, [a]) => defineJob(a as never),
  declareJob: (_, [a]) => declareJob(a as never),
  implementJob: (_, [a, b]) => implementJob(a as never, b as never),
  defineEvent: (_, [a]) => defineEvent(a as never),
};

/** Entry points never given the driver: nothing they do can change it. */
export const DRIVERLESS: ReadonlySet<string> = new Set([
  'defineJob',
  'declareJob',
  'implementJob',
  'defineEvent',
]);

const run = () => 'ran';

/** A valid call of each app entry point over the world; undefined for any other entry. */
export function appTemplateOf(
  entry: string,
  world: ScreensWorld,
  now: number,
): unknown[] | undefined {
  switch (entry) {
    case 'client.enqueue':
      return [{ a: 1 }, { queue: 'fuzz', priority: 1 }];
    case 'client.enqueue(job)':
      return [FUZZ_JOB, { a: 1 }, { runAt: now + 1_000 }];
    case 'client.enqueueMany':
      return [
        [
          { job: FUZZ_JOB, payload: 1 },
          { job: FUZZ_JOB, payload: { a: 1 } },
        ],
      ];
    case 'client.enqueueAndWait':
      return [{ a: 1 }, { queue: 'fuzz', timeoutMs: 1_000 }];
    case 'client.enqueueAndWait(job)':
      return [FUZZ_JOB, { a: 1 }, { timeoutMs: 0 }];
    case 'client.publish':
      return ['kit.fuzz', { a: 1 }, { ttl: 60_000 }];
    case 'client.publish(event)':
      return [{ a: 1 }, { ttl: 60_000 }];
    case 'client.get':
    case 'client.handle':
      return [WORLD_JOB, world.readyId, {}];
    case 'client.get(job)':
      return [world.deadId, {}];
    case 'client.handle(job).result':
      return [world.readyId, {}, { timeoutMs: 1_000 }];
    case 'client.schedules.upsert':
      return [{ name: 'fuzz', cron: '0 3 * * *', job: FUZZ_JOB, payload: { a: 1 }, catchUp: 1 }];
    case 'client.schedules.pause':
    case 'client.schedules.lastSlot':
      return ['fuzz', {}];
    case 'createClient':
      return [{ jobs: [FUZZ_JOB] }];
    case 'createWorker':
      return [{ jobs: [FUZZ_JOB], concurrency: 1, visibilityTimeoutMs: 60_000 }];
    case 'createScheduler':
      return [{ schedules: [{ name: 'fuzz', cron: '* * * * *', job: FUZZ_JOB }], tickMs: 1_000 }];
    case 'createRetention':
      return [{ keep: { completed: 60_000 }, intervalMs: 60_000 }];
    case 'defineJob':
      return [{ name: 'kit.fuzz.def', run, retry: { maxAttempts: 2 }, concurrency: 1 }];
    case 'declareJob':
      return [{ name: 'kit.fuzz.decl', queue: 'fuzz', timeout: 1_000 }];
    case 'implementJob':
      return [FUZZ_CONTRACT, { run }];
    case 'defineEvent':
      return [{ name: 'kit.fuzz.event' }];
    default:
      return undefined;
  }
}
