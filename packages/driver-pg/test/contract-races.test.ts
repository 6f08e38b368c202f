import { createManualClock, isBerthError } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { openPgDriver } from './pg-factory.js';

it('requeue racing a purge of the same row answers JOB_NOT_FOUND', async () => {
  const clock = createManualClock();
  const hooks: { afterRequeueCheck?: () => Promise<void> } = {};
  const { driver, dispose } = await openPgDriver({ clock, hooks });
  try {
    const { id } = await driver.enqueue({ name: 'gone' });
    await driver.cancel(id);
    await clock.advance(1);
    hooks.afterRequeueCheck = async () => {
      expect(await driver.purge({ states: ['cancelled'], olderThan: clock.now() })).toBe(1);
    };
    const refusal = await driver.requeue(id).catch((error: unknown) => error);
    expect(isBerthError(refusal) && refusal.code).toBe('JOB_NOT_FOUND');
  } finally {
    await dispose();
  }
});

it('events.find answers in publish order, not by publishedAt, when publishers run on skewed clocks', async () => {
  const ahead = createManualClock(Date.UTC(2026, 0, 1, 0, 0, 10));
  const behind = createManualClock(Date.UTC(2026, 0, 1));
  const { driver, schema, dispose } = await openPgDriver({ clock: ahead });
  const other = createPgDriver({ connectionString: await serverUrl('pg'), schema, clock: behind });
  try {
    const first = await driver.events.publish('tick', { n: 1 });
    const second = await other.events.publish('tick', { n: 2 });
    expect(second.publishedAt).toBeLessThan(first.publishedAt);
    expect((await driver.events.find('tick', { after: 0 }))?.id).toBe(first.id);
    expect((await driver.events.list('tick')).map((event) => event.id)).toEqual([
      first.id,
      second.id,
    ]);
  } finally {
    await other.close();
    await dispose();
  }
});
