import { describe, expect, it } from 'vitest';
import { type Driver, MINUTE_MS, scanThroughput } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';

async function settle(driver: Driver, queue: string, outcome: 'ack' | 'dead' | 'failed') {
  await driver.enqueue({ name: 'work', queue });
  const [job] = await driver.claim({
    queues: [queue],
    limit: 1,
    workerId: 'w',
    visibilityTimeoutMs: 30_000,
  });
  if (job === undefined) throw new Error('nothing claimed');
  const fence = { jobId: job.id, workerId: 'w', claim: job.claim };
  if (outcome === 'ack') await driver.ack(fence);
  else {
    await driver.nack(fence, {
      error: { message: 'boom' },
      final: true,
      deadLetter: outcome === 'dead',
    });
  }
}

describe('scanThroughput', () => {
  it('counts jobs completed and failed (failed and dead) per minute and queue over the window, from finishedAt', async () => {
    const { driver, clock } = memoryOnManualClock();
    // Finished before the window: not counted.
    await settle(driver, 'mail', 'ack');
    await clock.advance(10 * MINUTE_MS);
    await settle(driver, 'mail', 'ack');
    await settle(driver, 'mail', 'dead');
    await clock.advance(MINUTE_MS);
    await settle(driver, 'mail', 'ack');
    await settle(driver, 'images', 'failed');
    const scanned = await scanThroughput(driver, { minutes: 5, pages: 2 });
    expect(scanned.minuteStarts).toHaveLength(5);
    expect(scanned.minuteStarts.at(-1)).toBe(clock.now() - (clock.now() % MINUTE_MS));
    expect(scanned.perQueue.get('mail')).toEqual({
      completed: [0, 0, 0, 1, 1],
      failed: [0, 0, 0, 1, 0],
    });
    expect(scanned.perQueue.get('images')).toEqual({
      completed: [0, 0, 0, 0, 0],
      failed: [0, 0, 0, 0, 1],
    });
    expect(scanned.total).toEqual({ completed: [0, 0, 0, 1, 1], failed: [0, 0, 0, 1, 1] });
    expect(scanned.capped).toEqual([]);
  });
});
