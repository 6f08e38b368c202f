import { describe, expect, it } from 'vitest';
import { createClient, defineJob, isBerthError, NonRetryableError } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, gate, settleTicks } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const workers = testWorkers({
  visibilityTimeoutMs: 30_000,
  concurrency: 4,
  pollIntervalMs: 20,
  settleBatchMs: 0,
});

const double = defineJob<{ n: number }>()({
  name: 'double',
  run: ({ payload }) => ({ doubled: payload.n * 2 }),
});

describe('step.invoke runs a child job and answers its result', () => {
  it('answers the child result typed, the child carrying the parent as parentId and its tenant', async () => {
    const { driver, clock } = memoryOnManualClock();
    const parent = defineJob<{ n: number }>()({
      name: 'parent',
      run: async ({ payload, step }) => {
        const { doubled } = await step.invoke('double it', double, { n: payload.n });
        return doubled + 1;
      },
    });
    await workers.start(driver, [parent, double]);
    const { id } = await createClient({ driver }).enqueue(parent, { n: 20 }, { tenantId: 't-1' });
    const done = await driveToState(driver, clock, id, 'completed');
    expect(done.result).toBe(41);
    const children = (await driver.list({ name: 'double', tenantId: 't-1' })).jobs;
    expect(children).toHaveLength(1);
    expect(children[0]).toMatchObject({ parentId: id, tenantId: 't-1', state: 'completed' });
  });

  it('parks the parent without holding a worker while the child runs, and wakes it when the child settles', async () => {
    const { driver, clock } = memoryOnManualClock();
    const release = gate();
    const slow = defineJob<{ n: number }>()({
      name: 'slow',
      run: async ({ payload }) => {
        await release.promise;
        return payload.n;
      },
    });
    const parent = defineJob<Record<string, never>>()({
      name: 'parent',
      run: async ({ step }) => step.invoke('slow', slow, { n: 7 }),
    });
    await workers.start(driver, [parent, slow], { concurrency: 1, eventPollMs: 3_600_000 });
    const { id } = await createClient({ driver }).enqueue(parent, {});
    await driveToState(driver, clock, id, 'suspended');
    expect((await driver.get(id))?.waitFor).toBe(`berth.flow:${id}`);
    release.open();
    // The clock stands still: only the child's announcement can wake the parent before its poll.
    for (let round = 0; round < 50 && (await driver.get(id))?.state !== 'completed'; round += 1) {
      await settleTicks();
    }
    expect(await driver.get(id)).toMatchObject({ state: 'completed', result: 7 });
  });

  it('enqueues the child once per run: a parent attempt that fails after the invoke meets the same child', async () => {
    const { driver, clock } = memoryOnManualClock();
    let childRuns = 0;
    const child = defineJob<Record<string, never>>()({
      name: 'child',
      run: () => {
        childRuns += 1;
        return 'made';
      },
    });
    let parentRuns = 0;
    const parent = defineJob<Record<string, never>>()({
      name: 'parent',
      retry: { maxAttempts: 3, backoff: { initialMs: 10, jitter: 0 } },
      run: async ({ step }) => {
        const made = await step.invoke('make', child, {});
        parentRuns += 1;
        if (parentRuns === 1) throw new Error('the parent failed after its child settled');
        return made;
      },
    });
    await workers.start(driver, [parent, child]);
    const { id } = await createClient({ driver }).enqueue(parent, {});
    const done = await driveToState(driver, clock, id, 'completed');
    expect(done).toMatchObject({ result: 'made', attempts: 2 });
    expect(childRuns).toBe(1);
    expect((await driver.list({ name: 'child' })).jobs).toHaveLength(1);
  });

  it('throws JOB_FAILED naming the child when it failed; a parent that catches it goes on', async () => {
    const { driver, clock } = memoryOnManualClock();
    const refuses = defineJob<Record<string, never>>()({
      name: 'refuses',
      run: () => {
        throw new NonRetryableError('no such account');
      },
    });
    let caught: unknown;
    const parent = defineJob<Record<string, never>>()({
      name: 'parent',
      run: async ({ step }) => {
        try {
          return await step.invoke('charge', refuses, {});
        } catch (error) {
          caught = error;
          return 'fell back';
        }
      },
    });
    await workers.start(driver, [parent, refuses]);
    const { id } = await createClient({ driver }).enqueue(parent, {});
    expect((await driveToState(driver, clock, id, 'completed')).result).toBe('fell back');
    expect(isBerthError(caught, 'JOB_FAILED')).toBe(true);
    expect(isBerthError(caught, 'JOB_FAILED') && caught.meta).toMatchObject({
      name: 'refuses',
      state: 'dead',
      error: { message: 'no such account' },
    });
  });

  it('an uncaught child failure fails the parent at once, whatever attempts it has left', async () => {
    const { driver, clock } = memoryOnManualClock();
    const refuses = defineJob<Record<string, never>>()({
      name: 'refuses',
      run: () => {
        throw new NonRetryableError('refused');
      },
    });
    const parent = defineJob<Record<string, never>>()({
      name: 'parent',
      retry: { maxAttempts: 5 },
      run: async ({ step }) => step.invoke('charge', refuses, {}),
    });
    await workers.start(driver, [parent, refuses]);
    const { id } = await createClient({ driver }).enqueue(parent, {});
    const dead = await driveToState(driver, clock, id, 'dead');
    // A resumed run keeps its attempt: the one attempt, resumed once, failed for good.
    expect(dead.attempts).toBe(1);
    expect(dead.lastError?.code).toBe('JOB_FAILED');
  });

  it('children invoked side by side with Promise.all run together and both answer', async () => {
    const { driver, clock } = memoryOnManualClock();
    const parent = defineJob<Record<string, never>>()({
      name: 'parent',
      run: async ({ step }) => {
        const [a, b] = await Promise.all([
          step.invoke('a', double, { n: 1 }),
          step.invoke('b', double, { n: 2 }),
        ]);
        return a.doubled + b.doubled;
      },
    });
    await workers.start(driver, [parent, double]);
    const { id } = await createClient({ driver }).enqueue(parent, {});
    expect((await driveToState(driver, clock, id, 'completed')).result).toBe(6);
  });

  it('a child cancelled from anywhere wakes its parent with JOB_FAILED state cancelled', async () => {
    const { driver, clock } = memoryOnManualClock();
    const never = defineJob<Record<string, never>>()({ name: 'never', run: () => 'ran' });
    const parent = defineJob<Record<string, never>>()({
      name: 'parent',
      run: async ({ step }) => step.invoke('never', never, {}, { delay: 3_600_000 }),
    });
    await workers.start(driver, [parent, never], { eventPollMs: 3_600_000 });
    const { id } = await createClient({ driver }).enqueue(parent, {});
    await driveToState(driver, clock, id, 'suspended');
    const [child] = (await driver.list({ name: 'never' })).jobs;
    await driver.cancel(String(child?.id));
    const dead = await driveToState(driver, clock, id, 'dead', { maxMs: 1_000 });
    expect(dead.lastError).toMatchObject({ code: 'JOB_FAILED' });
    expect(dead.lastError?.message).toContain('cancelled');
  });

  it("refuses options the invoke decides, and step names in Berth's own prefix", async () => {
    const { driver, clock } = memoryOnManualClock();
    const errors: unknown[] = [];
    const parent = defineJob<Record<string, never>>()({
      name: 'parent',
      run: async ({ step }) => {
        for (const call of [
          () => step.invoke('keyed', double, { n: 1 }, { idempotencyKey: 'k' } as never),
          () => step.invoke('berth.mine', double, { n: 1 }),
        ]) {
          errors.push(await call().catch((error: unknown) => error));
        }
        return 'checked';
      },
    });
    await workers.start(driver, [parent, double]);
    const { id } = await createClient({ driver }).enqueue(parent, {});
    await driveToState(driver, clock, id, 'completed');
    expect(errors.map((error) => isBerthError(error) && [error.code, error.meta])).toEqual([
      ['JOB_INVALID', expect.objectContaining({ field: 'options.idempotencyKey' })],
      ['STEP_INVALID', expect.objectContaining({ step: 'berth.mine' })],
    ]);
  });
});
