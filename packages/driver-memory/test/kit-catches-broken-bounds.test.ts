import { type KitReport, runKit } from '@berth/conformance';
import { type ClaimedJob, type Driver, MAX_PURGE_LIMIT } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { broken, brokenWith, memory } from './broken.js';

/**
 * (e) A claim that can hand one row to two workers when claims overlap (a read of candidates
 * that does not lock them): an overlapping claim also answers the row the last claim handed out.
 * One claim at a time never shows it.
 */
const claimDoubleHands = brokenWith(
  () => ({ inFlight: 0, last: undefined as ClaimedJob | undefined }),
  (real, shared) => ({
    claim: async (request) => {
      shared.inFlight += 1;
      try {
        const claimed = await real.claim(request);
        const stale = shared.inFlight > 1 && claimed.length > 0 ? shared.last : undefined;
        shared.last = claimed.at(-1) ?? shared.last;
        return stale === undefined ? claimed : [...claimed, stale];
      } finally {
        shared.inFlight -= 1;
      }
    },
  }),
);

/**
 * (f) A publish and a suspend that miss each other when they overlap (pg under READ COMMITTED
 * before the fix): a suspend landing while a publish is in flight neither sees the event nor is
 * seen by it, so the waiter sleeps out its timeout. One call at a time never shows it.
 */
const publishMissesRacingWaiter = brokenWith(
  () => ({ publishing: undefined as Promise<unknown> | undefined }),
  (real, shared) => ({
    events: {
      ...real.events,
      publish: async (name, payload, options) => {
        const publishing = real.events.publish(name, payload, options);
        shared.publishing = publishing;
        try {
          return await publishing;
        } finally {
          shared.publishing = undefined;
        }
      },
    },
    suspend: async (fence, options) => {
      const { publishing } = shared;
      if (publishing === undefined) return real.suspend(fence, options);
      await publishing.catch(() => undefined);
      const { eventsSince: _unseen, ...blind } = options;
      return real.suspend(fence, blind);
    },
  }),
);

/** (g) A purge and an expiry pass that ignore the caller's limit and remove every match. */
const purgeIgnoresLimit = broken((real: Driver) => ({
  purge: (request) => real.purge({ ...request, limit: MAX_PURGE_LIMIT }),
  events: {
    ...real.events,
    purgeExpired: () => real.events.purgeExpired({ limit: MAX_PURGE_LIMIT }),
  },
}));

/**
 * (h) An expiry pass that walks every row of the store first (a few times, so the growth stands
 * well clear of a loaded box's noise): its cost grows with the backlog.
 */
const WALKS_PER_PASS = 4;
const expiryWalksBacklog = broken((real: Driver) => ({
  events: {
    ...real.events,
    purgeExpired: async (options) => {
      for (let walk = 0; walk < WALKS_PER_PASS; walk += 1) {
        let page = await real.list({ limit: 500 });
        while (page.next !== undefined) page = await real.list({ limit: 500, after: page.next });
      }
      return real.events.purgeExpired(options);
    },
  },
}));

/**
 * (i) A claim that walks every row of the store first (a few times, as (h)): its cost grows with
 * the backlog while a get's does not.
 */
const claimWalksBacklog = broken((real: Driver) => ({
  claim: async (request) => {
    for (let walk = 0; walk < WALKS_PER_PASS; walk += 1) {
      let page = await real.list({ limit: 500 });
      while (page.next !== undefined) page = await real.list({ limit: 500, after: page.next });
    }
    return real.claim(request);
  },
}));

const failed = (report: KitReport) => report.failures.map((f) => `${f.group} / ${f.title}`);
const only = (groups: readonly string[]) => ({ reference: memory, only: groups });

describe('the conformance kit sees races and unbounded calls', () => {
  it('passes the unbroken memory driver in the concurrency and scale groups', async () => {
    const report = await runKit(memory, only(['concurrency', 'scale']));
    expect(failed(report)).toEqual([]);
    expect(report.ran).toBeGreaterThanOrEqual(7);
  }, 300_000);

  it('fails a driver whose overlapping claims can hand one row out twice', async () => {
    const report = await runKit(claimDoubleHands, only(['claim', 'concurrency']));
    expect(failed(report)).toEqual([
      'claim / concurrent claims hand each row to exactly one worker, once',
      'claim / claims racing from several drivers hand out exactly the first rows in claim order (priority desc, runAt asc, insertion order), none twice, each answer in claim order',
      'concurrency / several drivers claiming 2000 rows at once hand out every row exactly once',
    ]);
  }, 300_000);

  it('fails a driver whose publish and suspend miss each other when they overlap', async () => {
    const report = await runKit(publishMissesRacingWaiter, only(['events', 'concurrency']));
    expect(failed(report)).toEqual([
      'concurrency / a publish racing a suspend that waits for it always wakes the waiter: it is ready at once, never after its timeout',
    ]);
  }, 300_000);

  it('fails a driver whose purge and purgeExpired ignore the limit', async () => {
    const report = await runKit(purgeIgnoresLimit, only(['stats', 'scale']));
    expect(failed(report)).toEqual(
      expect.arrayContaining([
        'stats / purge with a limit removes at most that many rows, oldest finishedAt first across the states, then insertion order',
        'stats / purgeExpired with a limit removes at most that many expired events and answers the exact count',
        expect.stringMatching(/^scale \//),
      ]),
    );
  }, 300_000);

  it('fails a driver whose expiry pass costs more as the backlog grows', async () => {
    const report = await runKit(expiryWalksBacklog, only(['events', 'scale']));
    expect(failed(report)).toEqual([expect.stringMatching(/^scale \/ claim, publish, purge/)]);
    // The case's assertion lists the calls whose ratio grew: only the expiry pass.
    const grown = (report.failures[0]?.error as { actual?: unknown } | undefined)?.actual;
    expect(grown).toEqual([['purgeExpired with limit 10', expect.any(Number)]]);
  }, 300_000);

  it('fails a driver whose claim costs more as the backlog grows', async () => {
    const report = await runKit(claimWalksBacklog, only(['scale']));
    expect(failed(report)).toEqual([expect.stringMatching(/^scale \/ claim, publish, purge/)]);
    const grown = (report.failures[0]?.error as { actual?: unknown } | undefined)?.actual;
    expect(grown).toEqual([['claim 10 and ack them', expect.any(Number)]]);
  }, 300_000);
});
