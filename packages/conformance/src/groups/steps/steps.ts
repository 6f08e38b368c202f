import { randomUUID } from 'node:crypto';
import { type Json, MAX_ERROR_STACK_LENGTH, type StepRecord } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase, KitGroup } from '../../kit.js';
import { enqueueAndClaim, stepRecord } from '../fixtures/index.js';
import { stepsFenceCases } from './steps-fence.js';

const writeCases: readonly KitCase[] = [
  {
    title: 'put then get answers the step exactly as written',
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      const step = stepRecord(job.runId, 'fetch', t0, { output: { rows: 3 } });
      await driver.steps.put(step, fence);
      expect(await driver.steps.get(job.runId, 'fetch')).toStrictEqual(step);
      expect(await driver.steps.list(job.runId)).toStrictEqual([step]);
    },
  },
  {
    title: "list answers a run's steps in write order, not by name",
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      const names = ['zeta', 'alpha', 'mid', 'beta'];
      for (const [n, name] of names.entries()) {
        await driver.steps.put(stepRecord(job.runId, name, t0 + n), fence);
      }
      expect((await driver.steps.list(job.runId)).map((step) => step.name)).toEqual(names);
    },
  },
  {
    title: "a later put of a name updates the step in place and keeps its first put's place",
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      const a = stepRecord(job.runId, 'a', t0);
      const c = stepRecord(job.runId, 'c', t0);
      await driver.steps.put(a, fence);
      await driver.steps.put(
        stepRecord(job.runId, 'b', t0, { status: 'sleeping', wakeAt: t0 + 9 }),
        fence,
      );
      await driver.steps.put(c, fence);
      await clock.advance(50);
      const b = stepRecord(job.runId, 'b', t0, { output: 'woke', attempts: 2, updatedAt: t0 + 50 });
      await driver.steps.put(b, fence);
      expect(await driver.steps.list(job.runId)).toStrictEqual([a, b, c]);
      expect(await driver.steps.get(job.runId, 'b')).toStrictEqual(b);
    },
  },
  {
    title: 'put stores every optional field it is given, and none it is not',
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      const eventId = randomUUID();
      const bare: StepRecord = {
        runId: job.runId,
        name: 'nap',
        status: 'sleeping',
        attempts: 0,
        wakeAt: t0 + 60_000,
        startedAt: t0,
        updatedAt: t0,
      };
      const waiting: StepRecord = {
        ...bare,
        name: 'wait',
        status: 'waiting',
        wakeAt: t0 + 120_000,
        eventName: 'invoice.paid',
        eventId,
      };
      const failed: StepRecord = {
        ...bare,
        name: 'charge',
        status: 'failed',
        attempts: 3,
        error: {
          code: 'CARD',
          message: 'declined',
          stack: 's'.repeat(MAX_ERROR_STACK_LENGTH + 10),
        },
      };
      for (const step of [bare, waiting, failed]) await driver.steps.put(step, fence);
      expect(await driver.steps.get(job.runId, 'nap')).toStrictEqual(bare);
      expect(await driver.steps.get(job.runId, 'wait')).toStrictEqual(waiting);
      expect(await driver.steps.get(job.runId, 'charge')).toStrictEqual({
        ...failed,
        error: { code: 'CARD', message: 'declined', stack: 's'.repeat(MAX_ERROR_STACK_LENGTH) },
      });
    },
  },
  {
    title: "a step's output round-trips as JSON",
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      const output = {
        text: 'ünïcödé ☃ 😀',
        numbers: [0, -0, 1.25, -1e21, Number.MAX_SAFE_INTEGER],
        nested: { list: [null, true, false, { empty: {} }, []] },
        skipped: undefined,
      };
      await driver.steps.put(
        stepRecord(job.runId, 'json', t0, { output: output as unknown as Json }),
        fence,
      );
      expect((await driver.steps.get(job.runId, 'json'))?.output).toStrictEqual({
        text: 'ünïcödé ☃ 😀',
        numbers: [0, 0, 1.25, -1e21, Number.MAX_SAFE_INTEGER],
        nested: { list: [null, true, false, { empty: {} }, []] },
      });
    },
  },
  {
    title: 'steps of two runs are kept apart, even under the same name',
    run: async ({ driver, t0 }) => {
      const one = await enqueueAndClaim(driver);
      const two = await enqueueAndClaim(driver);
      const first = stepRecord(one.job.runId, 'same', t0, { output: 1 });
      const second = stepRecord(two.job.runId, 'same', t0, { output: 2 });
      await driver.steps.put(first, one.fence);
      await driver.steps.put(second, two.fence);
      expect(await driver.steps.list(one.job.runId)).toStrictEqual([first]);
      expect(await driver.steps.list(two.job.runId)).toStrictEqual([second]);
    },
  },
  {
    title: 'get and list of a run nobody wrote answer undefined and []',
    run: async ({ driver }) => {
      const runId = randomUUID();
      expect(await driver.steps.get(runId, 'anything')).toBeUndefined();
      expect(await driver.steps.list(runId)).toEqual([]);
    },
  },
  {
    title: 'get of a name the run never wrote answers undefined',
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      await driver.steps.put(stepRecord(job.runId, 'written', t0), fence);
      expect(await driver.steps.get(job.runId, 'never')).toBeUndefined();
      expect(await driver.steps.get(job.runId, 'Written')).toBeUndefined();
    },
  },
  {
    title: 'step calls refuse a bad runId, name, status or output with JOB_INVALID naming it',
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      const good = stepRecord(job.runId, 'ok', t0);
      const bad = (change: Record<string, unknown>) =>
        ({ ...good, ...change }) as unknown as StepRecord;
      await expectRefusal(driver.steps.get('run-1', 'a'), 'JOB_INVALID', { field: 'runId' });
      await expectRefusal(driver.steps.list('run-1'), 'JOB_INVALID', { field: 'runId' });
      await expectRefusal(driver.steps.get(job.runId, ''), 'JOB_INVALID', { field: 'step name' });
      await expectRefusal(driver.steps.put(bad({ runId: 'run-1' }), fence), 'JOB_INVALID', {
        field: 'runId',
      });
      await expectRefusal(driver.steps.put(bad({ name: '' }), fence), 'JOB_INVALID', {
        field: 'step name',
      });
      await expectRefusal(driver.steps.put(bad({ status: 'done' }), fence), 'JOB_INVALID', {
        field: 'status',
      });
      await expectRefusal(driver.steps.put(bad({ output: 10n }), fence), 'JOB_INVALID', {
        field: 'output',
      });
      expect(await driver.steps.list(job.runId)).toEqual([]);
    },
  },
];

export const stepsGroup: KitGroup = { name: 'steps', cases: [...writeCases, ...stepsFenceCases] };
