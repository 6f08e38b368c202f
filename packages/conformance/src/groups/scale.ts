import { expect } from 'vitest';
import { type CaseContext, DEFAULT_SCALE_BACKLOG, type KitCase, type KitGroup } from '../kit.js';
import { COST_SAMPLES, cost, HOT, seed } from './scale-world.js';

/** A call may cost this many times more behind the big backlog than behind the small one. */
const MAX_RATIO = 5;
/** The small backlog is this fraction of the big one. */
const SMALL_SHARE = 100;
/** Rows or events each measured call handles. */
const LIMIT = 10;
/**
 * The smallest big backlog: its small share must still hold the rows and events every sample of
 * every measured call takes (a claim, a purge and an expiry pass each take LIMIT of them).
 */
export const MIN_SCALE_BACKLOG = SMALL_SHARE * LIMIT * COST_SAMPLES;

/** The cost of each bounded call on the store as it is now. */
async function measure(context: CaseContext): Promise<Record<string, number>> {
  const { driver, clock } = context;
  let published = 0;
  return {
    'claim 10 and ack them': await cost(async () => {
      const claimed = await driver.claim({
        queues: [HOT],
        limit: LIMIT,
        workerId: 'scale',
        visibilityTimeoutMs: 60_000,
      });
      expect(claimed.map((job) => [job.name, job.priority])).toEqual(
        Array.from({ length: LIMIT }, () => ['backlog', 0]),
      );
      const fences = claimed.map((job) => ({
        fence: { jobId: job.id, workerId: job.claimedBy, claim: job.claim },
      }));
      expect(await driver.ackMany(fences)).toEqual(fences.map(() => true));
    }),
    publish: await cost(async () => {
      published += 1;
      await driver.events.publish(`ping-${published}`, { published });
    }),
    'purge with limit 10': await cost(async () => {
      const olderThan = clock.now() + 1;
      expect(await driver.purge({ states: ['completed'], olderThan, limit: LIMIT })).toBe(LIMIT);
    }),
    'purgeExpired with limit 10': await cost(async () => {
      expect(await driver.events.purgeExpired({ limit: LIMIT })).toBe(LIMIT);
    }),
  };
}

const scaleCases: readonly KitCase[] = [
  {
    title:
      'claim, publish, purge and purgeExpired cost about the same behind a large backlog of ready, future, lapsed, finished, suspended and expired rows as behind a small one; a bounded purge removes exactly its limit',
    timeoutMs: 300_000,
    costMs: 12_000,
    run: async (context) => {
      const backlog = Math.max(
        MIN_SCALE_BACKLOG,
        context.options.scaleBacklog ?? DEFAULT_SCALE_BACKLOG,
      );
      const small = Math.floor(backlog / SMALL_SHARE);
      await seed(context, small);
      const before = await measure(context);
      await seed(context, backlog - small);
      const after = await measure(context);
      const ratios = Object.fromEntries(
        Object.entries(after).map(([call, ms]) => [call, ms / (before[call] ?? ms)]),
      );
      const grown = Object.entries(ratios).filter(([, ratio]) => ratio >= MAX_RATIO);
      expect(
        grown,
        `calls that grew with the backlog (${small} → ${backlog} rows of each kind): ${JSON.stringify({ before, after })}`,
      ).toEqual([]);
    },
  },
];

/** D8: no call's cost grows with the backlog, shown by a ratio measured in the same case. */
export const scaleGroup: KitGroup = { name: 'scale', cases: scaleCases };
