import { createManualClock, type Driver, isBerthError } from '@berth/core';
import { expect, it } from 'vitest';
import { openPgDriver } from './pg-factory.js';

const RETENTION = 16;

/** Cancels `count` fresh jobs: one `cancelled` event each, in order. */
async function cancelled(driver: Driver, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const { id } = await driver.enqueue({ name: 'lc-trim', queue: 'lc-positions' });
    await driver.cancel(id);
    ids.push(id);
  }
  return ids;
}

const codeOf = (error: unknown) => (isBerthError(error) ? error.code : error);

it('trim removes at most limit events beyond the newest lifecycleRetention, oldest first, and answers how many; the newest stay readable in order', async () => {
  const { driver, dispose } = await openPgDriver({
    clock: createManualClock(),
    lifecycleRetention: RETENTION,
  });
  try {
    expect(await driver.lifecycle.trim()).toBe(0);
    const ids = await cancelled(driver, RETENTION + 4);
    expect(await driver.lifecycle.trim({ limit: 3 })).toBe(3);
    expect(await driver.lifecycle.trim({ limit: 100 })).toBe(1);
    expect(await driver.lifecycle.trim()).toBe(0);
    const page = await driver.lifecycle.read();
    expect(page.events.map((event) => event.jobId)).toEqual(ids.slice(4));
    expect(page.caughtUp).toBe(true);
  } finally {
    await dispose();
  }
});

it('a position of a trimmed event reads on from the oldest kept one; a well-formed position this stream never made (past its newest event, past the events its row holds, or missing between kept ones) is JOB_PAGE_INVALID', async () => {
  const { driver, dispose } = await openPgDriver({
    clock: createManualClock(),
    lifecycleRetention: RETENTION,
  });
  try {
    const ids = await cancelled(driver, RETENTION + 2);
    const [oldest, second, third] = (await driver.lifecycle.read()).events;
    if (oldest === undefined || second === undefined || third === undefined) {
      throw new Error('expected events');
    }
    expect(await driver.lifecycle.trim()).toBe(2);
    const resumed = await driver.lifecycle.read({ after: oldest.position, limit: 1 });
    expect(resumed.events.map((event) => event.jobId)).toEqual([ids[2]]);

    const [stamp = '', id = ''] = third.position.split('.');
    const never = [
      `${stamp}.${id}.2`,
      `${stamp}.${BigInt(id) + 1_000n}.1`,
      `${BigInt(stamp) + 1_000_000n}.1.1`,
      `${stamp}.${id}`,
      '18446744073709551616.1.1',
    ];
    for (const after of never) {
      const refusal = await driver.lifecycle.read({ after }).catch((error: unknown) => error);
      expect([after, codeOf(refusal)]).toEqual([after, 'JOB_PAGE_INVALID']);
    }
    expect(await driver.lifecycle.end()).toBe(
      (await driver.lifecycle.read({ after: third.position })).next,
    );
  } finally {
    await dispose();
  }
});

it('events written by one statement are kept and trimmed one by one: trim cuts the oldest of them, pages walk into and across them, and a position among the cut ones reads on from the oldest kept', async () => {
  const { driver, dispose } = await openPgDriver({
    clock: createManualClock(),
    lifecycleRetention: RETENTION,
  });
  try {
    await driver.enqueueMany(Array.from({ length: 40 }, () => ({ name: 'lc', queue: 'lc-batch' })));
    const claimed = await driver.claim({
      queues: ['lc-batch'],
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
      limit: 40,
    });
    const fences = claimed.map((job) => ({
      fence: { jobId: job.id, workerId: 'w', claim: job.claim },
    }));
    expect(await driver.ackMany(fences)).toEqual(fences.map(() => true));
    const all = await driver.lifecycle.read({ limit: 200 });
    expect(all.events.map((event) => event.type)).toEqual([
      ...fences.map(() => 'active'),
      ...fences.map(() => 'completed'),
    ]);

    expect(await driver.lifecycle.trim({ limit: 10 })).toBe(10);
    const paged = [];
    let next: string | undefined;
    for (let reads = 0; reads < 20; reads += 1) {
      const page = await driver.lifecycle.read({
        limit: 7,
        ...(next === undefined ? {} : { after: next }),
      });
      paged.push(...page.events);
      next = page.next;
      if (page.caughtUp) break;
    }
    expect(paged).toStrictEqual(all.events.slice(10));

    expect(await driver.lifecycle.trim()).toBe(80 - 10 - RETENTION);
    const kept = await driver.lifecycle.read({ after: all.events[20]?.position });
    expect(kept.events).toStrictEqual(all.events.slice(-RETENTION));
  } finally {
    await dispose();
  }
});
