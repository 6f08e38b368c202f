import { createManualClock } from '@berth/core';
import { expect, it } from 'vitest';
import { adminPool, openPgDriver } from './pg-factory.js';

const T0 = 1_700_000_000_000;
/** Leases found lapsed a claim files beyond its limit: `$3 + 16` since migration 9. */
const LAPSE_SLACK = 16;
const LAPSING = 500;

/** How many rows of the schema a claim has filed as lapsed (moved to the claim-order indexes). */
async function filed(schema: string): Promise<number> {
  const { rows } = await (await adminPool()).query<{ n: string }>(
    `SELECT count(*) AS n FROM "${schema}".jobs WHERE lapsed`,
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * After many leases of a queue lapse at once, each claim files a batch of them for later claims.
 * That batch is the claim's limit plus a fixed slack, not a fixed 200: a claim of 10 paid for 200
 * row updates after a mass lapse, so behind a big backlog it cost several times a claim behind a
 * small one (the kit's scale case failed under load).
 */
it('after 500 leases lapse at once, a claim files at most its limit plus LAPSE_SLACK of them, and claims keep filing until none is left', async () => {
  const clock = createManualClock(T0);
  const { driver, schema, dispose } = await openPgDriver({ clock });
  try {
    await driver.enqueueMany(
      Array.from({ length: LAPSING }, () => ({ name: 'lapsing', queue: 'hot', priority: -1 })),
    );
    const held = await driver.claim({
      queues: ['hot'],
      limit: LAPSING,
      workerId: 'gone',
      visibilityTimeoutMs: 1,
    });
    expect(held).toHaveLength(LAPSING);
    await driver.enqueueMany(Array.from({ length: 100 }, () => ({ name: 'ready', queue: 'hot' })));
    await clock.advance(1);

    let before = 0;
    for (const limit of [1, 10, 1, 40]) {
      const claimed = await driver.claim({
        queues: ['hot'],
        limit,
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
      });
      expect(claimed.map((job) => job.name)).toEqual(Array.from({ length: limit }, () => 'ready'));
      const now = await filed(schema);
      expect(now - before, `a claim of limit ${limit}`).toBe(limit + LAPSE_SLACK);
      before = now;
    }
    for (let call = 0; before < LAPSING; call += 1) {
      expect(call).toBeLessThan(LAPSING);
      await driver.claim({ queues: ['hot'], limit: 1, workerId: 'w', visibilityTimeoutMs: 60_000 });
      before = await filed(schema);
    }
    expect(before).toBe(LAPSING);
  } finally {
    await dispose();
  }
});
