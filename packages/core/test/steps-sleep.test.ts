import { describe, expect, it } from 'vitest';
import { memoryOnManualClock } from './support/memory.js';
import { type AttemptContext, mustGet, QUEUE, runAttempt } from './support/step-attempt.js';

const T0 = Date.UTC(2026, 0, 1);

describe('step.sleep and step.sleepUntil', () => {
  it('suspends the run without holding a worker and resumes it once the sleep is over', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { id, runId } = await driver.enqueue({ name: 'drip', queue: QUEUE });
    const log: string[] = [];
    const handler = async ({ step }: AttemptContext) => {
      await step.run('welcome', () => {
        log.push('welcome');
      });
      await step.sleep('wait-a-day', 86_400_000);
      await step.run('follow-up', () => {
        log.push('follow-up');
      });
      return null;
    };

    const first = await runAttempt(driver, handler);
    expect(first).toMatchObject({ kind: 'suspended', until: T0 + 86_400_000 });
    expect(first).not.toHaveProperty('waitFor');
    const parked = await mustGet(driver, id);
    expect(parked).toMatchObject({ state: 'suspended', runAt: T0 + 86_400_000, attempts: 1 });
    expect(parked).not.toHaveProperty('claimedBy');
    expect(await driver.steps.get(runId, 'wait-a-day')).toMatchObject({
      status: 'sleeping',
      wakeAt: T0 + 86_400_000,
    });

    await clock.advance(86_400_000 - 1);
    expect((await runAttempt(driver, handler)).kind).toBe('none');
    await clock.advance(1);
    const resumed = await runAttempt(driver, handler);

    expect(resumed.kind).toBe('completed');
    expect(resumed.kind === 'completed' && resumed.job.resumed).toBe(true);
    expect(resumed.kind === 'completed' && resumed.job.attempts).toBe(1);
    expect(log).toEqual(['welcome', 'follow-up']);
    expect(await driver.steps.get(runId, 'wait-a-day')).toMatchObject({ status: 'completed' });
  });

  it('keeps the wake instant of the first attempt when a retry reaches the sleep again', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { id } = await driver.enqueue({ name: 'nap', queue: QUEUE });
    const handler = async ({ step }: AttemptContext) => {
      await step.sleep('nap', 10_000);
      return null;
    };

    await runAttempt(driver, handler);
    await clock.advance(4_000);
    await driver.cancel(id);
    await driver.requeue(id);
    const again = await runAttempt(driver, handler);

    expect(again).toMatchObject({ kind: 'suspended', until: T0 + 10_000 });
  });

  it('does not suspend for a sleepUntil whose instant has passed', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { runId } = await driver.enqueue({ name: 'late', queue: QUEUE });
    await clock.advance(5_000);

    const outcome = await runAttempt(driver, async ({ step }) => {
      await step.sleepUntil('deadline', T0 + 1_000);
      return 'went on';
    });

    expect(outcome).toMatchObject({ kind: 'completed', result: 'went on' });
    expect(await driver.steps.get(runId, 'deadline')).toMatchObject({
      status: 'completed',
      wakeAt: T0 + 1_000,
    });
  });

  it('suspends a sleepUntil until the named instant', async () => {
    const { driver } = memoryOnManualClock();
    const { id } = await driver.enqueue({ name: 'at', queue: QUEUE });

    const outcome = await runAttempt(driver, async ({ step }) => {
      await step.sleepUntil('noon', T0 + 12 * 3_600_000);
      return null;
    });

    expect(outcome).toMatchObject({ kind: 'suspended', until: T0 + 12 * 3_600_000 });
    expect((await mustGet(driver, id)).runAt).toBe(T0 + 12 * 3_600_000);
  });
});
