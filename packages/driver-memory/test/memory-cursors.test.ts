import { isBerthError } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { createMemoryDriver } from '../src/index.js';

const SECRET = 'memory cursor secret 0001';

async function nextCursor(secret?: string) {
  const driver = createMemoryDriver(secret === undefined ? {} : { cursorSecret: secret });
  await driver.enqueueMany([{ name: 'a' }, { name: 'a' }, { name: 'a' }]);
  const page = await driver.list({ limit: 1 });
  return { driver, next: page.next ?? 'missing' };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (error: unknown) => (isBerthError(error) ? error.code : 'raw'),
  );

describe('memory list cursors', () => {
  it('are signed with cursorSecret: another key refuses them JOB_PAGE_INVALID', async () => {
    const { driver, next } = await nextCursor(SECRET);
    expect((await driver.list({ limit: 1, after: next })).jobs).toHaveLength(1);
    const stranger = createMemoryDriver({ cursorSecret: `${SECRET}-other` });
    expect(await codeOf(stranger.list({ after: next }))).toBe('JOB_PAGE_INVALID');
    const defaulted = createMemoryDriver();
    expect(await codeOf(defaulted.list({ after: next }))).toBe('JOB_PAGE_INVALID');
    const same = createMemoryDriver({ cursorSecret: SECRET });
    expect(await codeOf(same.list({ after: next }))).toBe('answered');
  });

  it('a cursorSecret shorter than 16 characters is CONFIG_INVALID naming cursorSecret', () => {
    let thrown: unknown;
    try {
      createMemoryDriver({ cursorSecret: 'short' });
    } catch (error) {
      thrown = error;
    }
    expect(isBerthError(thrown, 'CONFIG_INVALID')).toBe(true);
    if (isBerthError(thrown, 'CONFIG_INVALID')) expect(thrown.meta.option).toBe('cursorSecret');
  });
});
