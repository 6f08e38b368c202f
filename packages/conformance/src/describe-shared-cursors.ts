import { type Driver, isBerthError } from '@berth/core';
import { describe, expect, it } from 'vitest';

/**
 * Opens one more driver instance over a store the caller owns (one schema, one key prefix): every
 * call of one test reaches the same rows. `cursorSecret` is passed to the driver factory as given.
 */
export type OpenInstance = (cursorSecret?: string) => Promise<Driver>;

/** An instance opens, lists and is closed again by the caller's teardown. */
async function firstPage(driver: Driver): Promise<{ ids: string[]; next: string }> {
  for (let index = 0; index < 4; index += 1) {
    await driver.enqueue({ name: 'kit.cursor', queue: 'shared' });
  }
  const page = await driver.list({ queue: 'shared', limit: 2 });
  if (page.next === undefined) throw new Error('the first page should carry a next cursor');
  return { ids: page.jobs.map((job) => job.id), next: page.next };
}

const SECRET = 'kit shared cursor secret 0001';

/**
 * Registers the cursor cases that need two instances of a driver over one store, which a kit
 * factory (fresh, isolated drivers) cannot give: list cursors stay valid across the processes of
 * one deployment, with the default key and with an app-set `cursorSecret`, and a cursor signed
 * with another key is JOB_PAGE_INVALID. `open` is called several times per test.
 */
export function describeSharedCursors(name: string, open: OpenInstance): void {
  describe(`${name} list cursors across instances of one deployment`, () => {
    it('a cursor made by one instance walks the same list on another instance (default key)', async () => {
      const one = await open();
      const other = await open();
      const { next } = await firstPage(one);
      const mine = await one.list({ queue: 'shared', limit: 2, after: next });
      const theirs = await other.list({ queue: 'shared', limit: 2, after: next });
      expect(theirs.jobs.map((job) => job.id)).toEqual(mine.jobs.map((job) => job.id));
      expect(theirs.jobs).toHaveLength(2);
    });

    it('instances sharing a cursorSecret read each other’s cursors; an instance with another key refuses them JOB_PAGE_INVALID', async () => {
      const one = await open(SECRET);
      const other = await open(SECRET);
      const stranger = await open(`${SECRET}-other`);
      const defaulted = await open();
      const { next } = await firstPage(one);
      expect((await other.list({ queue: 'shared', limit: 2, after: next })).jobs).toHaveLength(2);
      for (const refusing of [stranger, defaulted]) {
        const answer = await refusing.list({ queue: 'shared', limit: 2, after: next }).then(
          () => 'answered',
          (error: unknown) => (isBerthError(error) ? error.code : 'raw'),
        );
        expect(answer).toBe('JOB_PAGE_INVALID');
      }
    });

    it('a cursorSecret shorter than 16 characters is refused CONFIG_INVALID naming cursorSecret', async () => {
      let thrown: unknown;
      try {
        await open('too short');
      } catch (error) {
        thrown = error;
      }
      expect(isBerthError(thrown, 'CONFIG_INVALID')).toBe(true);
      if (isBerthError(thrown, 'CONFIG_INVALID')) expect(thrown.meta.option).toBe('cursorSecret');
    });
  });
}
