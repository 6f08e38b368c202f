import { createClient, type Driver, defineJob, type LogAppend } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import { driveToState, driveUntil } from '../../runtime/drive.js';
import { withWorker } from '../../runtime/harness.js';
import { readAll } from './logs-fixtures.js';

/**
 * The case's driver with `logs.append` recorded (batch sizes, in order) and each ack preceded
 * by a read of the acked job's lines, so a case sees what was stored when the ack was sent.
 */
function watched(driver: Driver) {
  const batches: number[] = [];
  const atAck: number[] = [];
  const linesOf = async (jobId: string) => (await driver.logs.list(jobId)).lines.length;
  const wrapped: Driver = {
    ...driver,
    logs: {
      list: (jobId, options) => driver.logs.list(jobId, options),
      append: (fence, batch: LogAppend) => {
        batches.push(batch.lines.length);
        return driver.logs.append(fence, batch);
      },
    },
    ack: async (fence, options) => {
      atAck.push(await linesOf(fence.jobId));
      return driver.ack(fence, options);
    },
    ackMany: async (items) => {
      for (const item of items) atAck.push(await linesOf(item.fence.jobId));
      return driver.ackMany(items);
    },
  };
  return { driver: wrapped, batches, atAck };
}

/** `ctx.log` through a worker: batched, written before the settle, fenced, kept per attempt. */
export const logsWorkerCases: readonly KitCase[] = [
  {
    title:
      'a handler’s ctx.log lines are stored before its ack is sent, in order, with their levels and values formatted',
    timeoutMs: 30_000,
    run: async (context) => {
      const { driver, clock } = context;
      const seen = watched(driver);
      const chatty = defineJob({
        name: 'kit.logs-chatty',
        run: ({ log }) => {
          log('starting', 3, { of: 'files' });
          log.debug('detail');
          log.warn(['a', 1]);
          log.error(null, true);
          log.info('done');
          return 'ok';
        },
      });
      let id = '';
      await withWorker(
        context,
        [chatty],
        async () => {
          ({ id } = await createClient({ driver, jobs: [chatty] }).enqueue(chatty, null));
          await driveToState(driver, clock, id, 'completed');
        },
        { driver: seen.driver },
      );
      const { lines } = await readAll(driver, id);
      expect(
        lines.map(({ level, message, seq, attempt }) => [seq, attempt, level, message]),
      ).toStrictEqual([
        [1, 1, 'info', 'starting 3 {"of":"files"}'],
        [2, 1, 'debug', 'detail'],
        [3, 1, 'warn', '["a",1]'],
        [4, 1, 'error', 'null true'],
        [5, 1, 'info', 'done'],
      ]);
      expect(seen.batches).toStrictEqual([5]);
      expect(seen.atAck).toStrictEqual([5]);
    },
  },
  {
    title:
      'lines survive a retry: each attempt’s lines carry its attempt number, the failed attempt’s written before its nack',
    timeoutMs: 30_000,
    run: async (context) => {
      const { driver, clock } = context;
      const flaky = defineJob({
        name: 'kit.logs-retry',
        retry: { maxAttempts: 2, backoff: { initialMs: 100, jitter: 0 } },
        run: ({ log, attempt }) => {
          log(`attempt ${attempt} starts`);
          if (attempt === 1) {
            log.error(new Error('first attempt fails'));
            throw new Error('first attempt fails');
          }
          return 'second time lucky';
        },
      });
      let id = '';
      await withWorker(context, [flaky], async () => {
        ({ id } = await createClient({ driver, jobs: [flaky] }).enqueue(flaky, null));
        await driveToState(driver, clock, id, 'completed');
      });
      const { lines } = await readAll(driver, id);
      expect(lines.map(({ seq, attempt, level }) => [seq, attempt, level])).toStrictEqual([
        [1, 1, 'info'],
        [2, 1, 'error'],
        [3, 2, 'info'],
      ]);
      expect(lines[0]?.message).toBe('attempt 1 starts');
      expect(lines[1]?.message.startsWith('Error: first attempt fails')).toBe(true);
      expect(lines[2]?.message).toBe('attempt 2 starts');
    },
  },
  {
    title:
      'a long-running handler’s lines are written while it runs, in batches of at most 100 on the worker’s flush timer',
    timeoutMs: 30_000,
    run: async (context) => {
      const { driver, clock } = context;
      const seen = watched(driver);
      let release = (): void => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const busy = defineJob({
        name: 'kit.logs-busy',
        async run({ log }) {
          for (let line = 1; line <= 250; line += 1) log(`line ${line}`);
          await gate;
        },
      });
      let id = '';
      await withWorker(
        context,
        [busy],
        async () => {
          ({ id } = await createClient({ driver, jobs: [busy] }).enqueue(busy, null));
          await driveUntil(
            clock,
            'every line is written while the handler waits',
            async () => (await readAll(driver, id)).lines.length === 250,
          );
          expect((await driver.get(id))?.state).toBe('running');
          release();
          await driveToState(driver, clock, id, 'completed');
        },
        { driver: seen.driver },
      );
      expect(seen.batches).toStrictEqual([100, 100, 50]);
      expect((await readAll(driver, id)).lines.map((line) => line.message)).toStrictEqual(
        Array.from({ length: 250 }, (_, index) => `line ${index + 1}`),
      );
    },
  },
  {
    title:
      'a stale attempt’s lines never land: after a cancel, what the handler logs is dropped and the lines before it stay',
    timeoutMs: 30_000,
    run: async (context) => {
      const { driver, clock } = context;
      let release = (): void => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let ended = false;
      const stuck = defineJob({
        name: 'kit.logs-stale',
        async run({ log }) {
          log('before the cancel');
          await gate;
          log('after the cancel');
          ended = true;
        },
      });
      let id = '';
      await withWorker(context, [stuck], async () => {
        ({ id } = await createClient({ driver, jobs: [stuck] }).enqueue(stuck, null));
        await driveUntil(
          clock,
          'the first line is written',
          async () => (await driver.logs.list(id)).lines.length === 1,
        );
        expect((await driver.cancel(id)).state).toBe('cancelled');
        release();
        await driveUntil(clock, 'the handler ended', () => ended);
      });
      const { lines } = await readAll(driver, id);
      expect(lines.map((line) => line.message)).toStrictEqual(['before the cancel']);
      expect((await driver.get(id))?.state).toBe('cancelled');
    },
  },
];
