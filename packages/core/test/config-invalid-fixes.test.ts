import { configFixProblem } from '@berth/test-servers';
import { describe, expect, it } from 'vitest';
import {
  createClient,
  createRetention,
  createScheduler,
  createWorker,
  defineJob,
  isBerthError,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';

/** A fix a user can act on: what values the option takes, and a valid call setting it. */
function expectActionable(error: unknown): void {
  expect(isBerthError(error, 'CONFIG_INVALID'), String(error)).toBe(true);
  if (!isBerthError(error, 'CONFIG_INVALID')) return;
  expect(configFixProblem(error.meta.option, error.fix)).toBeUndefined();
}

const thrown = (make: () => unknown): unknown => {
  try {
    make();
  } catch (error) {
    return error;
  }
  throw new Error('expected a CONFIG_INVALID, but nothing was thrown');
};

const rejected = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected a CONFIG_INVALID rejection');
    },
    (error: unknown) => error,
  );

const run = async () => {};
const job = defineJob({ name: 'task', run });

describe('every CONFIG_INVALID fix says what the option takes and shows a valid call', () => {
  it('defineJob, for every option it checks', () => {
    const bad: readonly Record<string, unknown>[] = [
      { name: '' },
      { name: 'x', queue: '' },
      { name: 'x', run: 'not a function' },
      { name: 'x', schema: {} },
      { name: 'x', timeout: 0 },
      { name: 'x', rateLimit: { limit: 0, intervalMs: 1_000 } },
      { name: 'x', rateLimit: { limit: 1, intervalMs: 0.5 } },
      { name: 'x', concurrency: 0 },
      { name: 'x', concurrency: { limit: 1, key: 'tenant' } },
      { name: 'x', retry: { maxAttempts: 0 } },
      { name: 'x', retry: { deadLetter: 'yes' } },
      { name: 'x', retry: { backoff: { initialMs: -1 } } },
      { name: 'x', retry: { backoff: { factor: 0.5 } } },
      { name: 'x', retry: { backoff: { maxMs: Number.NaN } } },
      { name: 'x', retry: { backoff: { jitter: -0.1 } } },
      { name: 'x', retry: { backoff: { jitter: 1.5 } } },
    ];
    for (const options of bad) {
      expectActionable(thrown(() => defineJob({ run, ...options } as never)));
    }
  });

  it('createWorker, start after stop and stop({ graceMs })', async () => {
    const { driver } = memoryOnManualClock();
    const base = { driver, jobs: [job], concurrency: 1, visibilityTimeoutMs: 30_000 };
    const bad: readonly Record<string, unknown>[] = [
      { driver: {} },
      { jobs: [] },
      { jobs: [job, job] },
      { queues: [] },
      { concurrency: 0 },
      { concurrency: 1.5 },
      { concurrency: 1_001 },
      { visibilityTimeoutMs: 0 },
      { pollIntervalMs: -1 },
      { settleBatchMs: Number.NaN },
      { renewIntervalMs: 0 },
      { renewIntervalMs: 30_000 },
      { keyBusyDelayMs: 0 },
    ];
    for (const change of bad) {
      expectActionable(thrown(() => createWorker({ ...base, ...change } as never)));
    }
    const worker = createWorker(base);
    expectActionable(await rejected(worker.stop({ graceMs: -1 })));
    await worker.start();
    await worker.stop({ graceMs: 0 });
    expectActionable(await rejected(worker.start()));
  });

  it('createScheduler, for its options and every schedule field', () => {
    const { driver } = memoryOnManualClock();
    const schedule = { name: 's', cron: '* * * * *', job: 'task' };
    const bad: readonly Record<string, unknown>[] = [
      { tickMs: 0 },
      { leaseTtlMs: -1 },
      { tickMs: 5_000, leaseTtlMs: 5_000 },
      { catchUp: { maxSlots: -1 } },
      { schedules: [{ ...schedule, name: '' }] },
      { schedules: [schedule, schedule] },
      { schedules: [{ ...schedule, cron: '' }] },
      { schedules: [{ ...schedule, cron: 'every day' }] },
      { schedules: [{ ...schedule, timezone: 'Mars/Olympus' }] },
      { schedules: [{ ...schedule, job: '' }] },
      { schedules: [{ ...schedule, queue: '' }] },
      { schedules: [{ ...schedule, priority: 1.5 }] },
      { schedules: [{ ...schedule, maxAttempts: 0 }] },
      { schedules: [{ ...schedule, payload: { when: new Date() } }] },
    ];
    for (const change of bad) {
      expectActionable(
        thrown(() => createScheduler({ driver, schedules: [], ...change } as never)),
      );
    }
  });

  it('createRetention and createClient', async () => {
    const { driver } = memoryOnManualClock();
    expectActionable(thrown(() => createRetention({ driver, intervalMs: 0, keep: {} })));
    expectActionable(
      thrown(() => createRetention({ driver, intervalMs: 1_000, keep: { dead: -1 } })),
    );
    expectActionable(thrown(() => createClient({ driver, jobs: [job, job] })));
    const client = createClient({ driver, jobs: [job] });
    const other = defineJob({ name: 'other', run });
    expectActionable(await rejected(client.enqueue(other, null)));
  });
});
