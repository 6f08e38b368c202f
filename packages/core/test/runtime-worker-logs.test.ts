import { describe, expect, it } from 'vitest';
import {
  createClient,
  type Driver,
  defineJob,
  type Fence,
  formatLogValues,
  type LogAppend,
  MAX_LOG_LINE_BYTES,
} from '../src/index.js';
import { normaliseLogMessage } from '../src/screen/logs.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const workers = testWorkers({ concurrency: 5, visibilityTimeoutMs: 3_000, pollIntervalMs: 100 });

/** The memory driver with its appends recorded; `fail(n)` makes the n-th append lose its answer. */
function recording(loseAnswerOf: ReadonlySet<number> = new Set()) {
  const { driver: inner, clock } = memoryOnManualClock();
  const appends: { jobId: string; from: number; count: number }[] = [];
  const driver: Driver = new Proxy(inner, {
    get(target, property, receiver) {
      if (property !== 'logs') {
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return {
        list: inner.logs.list,
        async append(fence: Fence, batch: LogAppend) {
          appends.push({ jobId: fence.jobId, from: batch.from, count: batch.lines.length });
          const landed = await inner.logs.append(fence, batch);
          if (loseAnswerOf.has(appends.length)) throw new Error('the answer was lost');
          return landed;
        },
      };
    },
  });
  return { driver, clock, appends };
}

describe('worker: ctx.log', () => {
  it('a job that never logs makes no append', async () => {
    const { driver, clock, appends } = recording();
    const quiet = defineJob({ name: 'quiet', run: () => 'ok' });
    await workers.start(driver, [quiet]);
    const { id } = await createClient({ driver }).enqueue(quiet, null);
    await driveToState(driver, clock, id, 'completed');
    expect(appends).toEqual([]);
    expect(await driver.logs.list(id)).toEqual({ lines: [], dropped: 0 });
  });

  it('five jobs logging at once each cost one append, written before their acks', async () => {
    const { driver, clock, appends } = recording();
    const chatty = defineJob<{ n: number }>({
      name: 'chatty',
      run: ({ payload, log }) => {
        log('job', payload.n, 'starts');
        log.warn('job', payload.n, 'ends');
      },
    });
    await workers.start(driver, [chatty]);
    const client = createClient({ driver });
    const ids = await Promise.all(
      [1, 2, 3, 4, 5].map(async (n) => (await client.enqueue(chatty, { n })).id),
    );
    for (const id of ids) await driveToState(driver, clock, id, 'completed');
    expect(appends.map((append) => append.count)).toEqual([2, 2, 2, 2, 2]);
    for (const [index, id] of ids.entries()) {
      const { lines } = await client.logs(id);
      expect(lines.map((line) => [line.level, line.message])).toEqual([
        ['info', `job ${index + 1} starts`],
        ['warn', `job ${index + 1} ends`],
      ]);
    }
  });

  it('an append whose answer was lost is sent again with the same from, and its lines are stored once', async () => {
    const { driver, clock, appends } = recording(new Set([1]));
    const once = defineJob({
      name: 'once',
      run: ({ log }) => {
        log('only once');
        log('and this too');
      },
    });
    await workers.start(driver, [once]);
    const { id } = await createClient({ driver }).enqueue(once, null);
    await driveToState(driver, clock, id, 'completed');
    expect(appends.map(({ from, count }) => [from, count])).toEqual([
      [0, 2],
      [0, 2],
    ]);
    const { lines } = await driver.logs.list(id);
    expect(lines.map((line) => line.message)).toEqual(['only once', 'and this too']);
  });
});

describe('ctx.log values and messages', () => {
  it('strings stay, errors read as their stack, other values as JSON, the rest as String', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(formatLogValues(['a', 1, { b: [true, null] }])).toBe('a 1 {"b":[true,null]}');
    expect(formatLogValues([new Error('boom')]).startsWith('Error: boom\n')).toBe(true);
    expect(formatLogValues([10n, undefined, cyclic])).toBe('10n undefined [object Object]');
    expect(formatLogValues([])).toBe('');
  });

  it('a message over MAX_LOG_LINE_BYTES is cut at a character boundary and ends with …', () => {
    const cut = normaliseLogMessage('é'.repeat(MAX_LOG_LINE_BYTES));
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(MAX_LOG_LINE_BYTES);
    expect(cut).toBe(`${'é'.repeat((MAX_LOG_LINE_BYTES - 4) / 2)}…`);
    expect(normaliseLogMessage('short')).toBe('short');
  });
});
