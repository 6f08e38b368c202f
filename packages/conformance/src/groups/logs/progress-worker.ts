import { createClient, defineJob, type Json } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import { driveToState, driveUntil } from '../../runtime/drive.js';
import { withWorker } from '../../runtime/harness.js';
import { wrapDriver } from '../../runtime/wrap-driver.js';

/** `ctx.progress` through a worker: throttled, fenced, and kept across attempts. */
export const progressWorkerCases: readonly KitCase[] = [
  {
    title:
      'a handler reporting progress in a tight loop costs two writes: the first value at once, the last before the settle; get shows the last and the worker emits both',
    timeoutMs: 30_000,
    run: async (context) => {
      const { driver, clock } = context;
      const counted = wrapDriver(driver, {});
      const events: Json[] = [];
      const loop = defineJob({
        name: 'kit.progress-loop',
        run: ({ progress }) => {
          for (let done = 1; done <= 50; done += 1) void progress({ done, of: 50 });
          return 'looped';
        },
      });
      await withWorker(
        context,
        [loop],
        async () => {
          const { id } = await createClient({ driver, jobs: [loop] }).enqueue(loop, null);
          const record = await driveToState(driver, clock, id, 'completed');
          expect(record.result).toBe('looped');
          expect(record.progress).toStrictEqual({ done: 50, of: 50 });
          expect(counted.calls.progress).toBe(2);
          expect(events).toStrictEqual([
            { done: 1, of: 50 },
            { done: 50, of: 50 },
          ]);
        },
        {
          driver: counted.driver,
          on: (worker) => worker.on('progress', ({ value }) => events.push(value)),
        },
      );
    },
  },
  {
    title:
      'a stale attempt’s progress never lands: after a cancel the handler’s report answers false and the record keeps the value before it',
    timeoutMs: 30_000,
    run: async (context) => {
      const { driver, clock } = context;
      let release = (): void => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const seen: { first?: boolean; late?: boolean } = {};
      const stuck = defineJob({
        name: 'kit.progress-stale',
        async run({ progress }) {
          seen.first = await progress('before');
          await gate;
          seen.late = await progress('after');
        },
      });
      await withWorker(context, [stuck], async () => {
        const { id } = await createClient({ driver, jobs: [stuck] }).enqueue(stuck, null);
        await driveUntil(clock, 'the first report landed', () => seen.first !== undefined);
        expect(seen.first).toBe(true);
        expect((await driver.cancel(id)).progress).toBe('before');
        release();
        await driveUntil(clock, 'the late report answered', () => seen.late !== undefined);
        expect(seen.late).toBe(false);
        expect(await driver.get(id)).toMatchObject({ state: 'cancelled', progress: 'before' });
      });
    },
  },
  {
    title:
      'a retry sees the progress its failed attempt reported (ctx.job.progress) until it reports its own',
    timeoutMs: 30_000,
    run: async (context) => {
      const { driver, clock } = context;
      const saw: (Json | undefined)[] = [];
      const resumable = defineJob({
        name: 'kit.progress-retry',
        retry: { maxAttempts: 2, backoff: { initialMs: 100, jitter: 0 } },
        async run({ progress, job, attempt }) {
          saw.push(job.progress);
          await progress({ attempt, done: attempt * 10 });
          if (attempt === 1) throw new Error('first attempt fails after reporting');
          return 'resumed';
        },
      });
      await withWorker(context, [resumable], async () => {
        const { id } = await createClient({ driver, jobs: [resumable] }).enqueue(resumable, null);
        const record = await driveToState(driver, clock, id, 'completed');
        expect(record.progress).toStrictEqual({ attempt: 2, done: 20 });
        expect(saw).toStrictEqual([undefined, { attempt: 1, done: 10 }]);
      });
    },
  },
];
