import { createManualClock, type Driver } from '@berth/core';
import { expect, it } from 'vitest';
import { openPgDriver } from './pg-factory.js';

const QUEUE = 'lc-transitions';

async function kindsOf(driver: Driver, jobId: string): Promise<string[]> {
  const page = await driver.lifecycle.read({ jobId });
  return page.events.map((event) => `${event.type}@${event.attempt}`);
}

async function claimOne(driver: Driver, visibilityTimeoutMs: number) {
  const [job] = await driver.claim({ queues: [QUEUE], workerId: 'w', visibilityTimeoutMs });
  if (job === undefined) throw new Error('expected a claim');
  return { jobId: job.id, workerId: job.claimedBy, claim: job.claim };
}

it('a nack that gives up a lapsed final attempt with a LEASE_LAPSED error writes dead alone, where the claim that buries such an attempt writes stalled then dead', async () => {
  const clock = createManualClock();
  const { driver, dispose } = await openPgDriver({ clock });
  try {
    const nacked = await driver.enqueue({ name: 'nacked', queue: QUEUE, maxAttempts: 1 });
    const fence = await claimOne(driver, 1_000);
    await clock.advance(5_000);
    const error = { code: 'LEASE_LAPSED', message: 'as a burial writes it' };
    expect(await driver.nack(fence, { error })).toBe(true);
    expect(await kindsOf(driver, nacked.id)).toEqual(['active@1', 'dead@1']);

    const buried = await driver.enqueue({ name: 'buried', queue: QUEUE, maxAttempts: 1 });
    await claimOne(driver, 1_000);
    await clock.advance(5_000);
    expect(await driver.claim({ queues: [QUEUE], workerId: 'w', visibilityTimeoutMs: 1 })).toEqual(
      [],
    );
    expect(await kindsOf(driver, buried.id)).toEqual(['active@1', 'stalled@1', 'dead@1']);
  } finally {
    await dispose();
  }
});

it('a progress write that stores the value the job already holds still writes progress, at its own instant', async () => {
  const clock = createManualClock();
  const { driver, dispose } = await openPgDriver({ clock });
  try {
    const { id } = await driver.enqueue({ name: 'same', queue: QUEUE });
    const fence = await claimOne(driver, 60_000);
    expect(await driver.progress(fence, { done: 1 })).toBe(true);
    expect(await driver.progress(fence, { done: 1 })).toBe(true);
    await clock.advance(3);
    expect(await driver.progress(fence, { done: 1 })).toBe(true);
    const page = await driver.lifecycle.read({ jobId: id });
    expect(page.events.map((event) => [event.type, event.at])).toEqual([
      ['active', clock.now() - 3],
      ['progress', clock.now() - 3],
      ['progress', clock.now() - 3],
      ['progress', clock.now()],
    ]);
  } finally {
    await dispose();
  }
});
