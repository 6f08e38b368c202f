import { expect } from 'vitest';
import {
  type CaseContext,
  DEFAULT_SCALE_BACKLOG,
  KIT_LIFECYCLE_RETENTION,
  type KitCase,
  type KitGroup,
} from '../../kit.js';
import { COST_SAMPLES, costs, HOT, type ScaleStore, seed } from './scale-world.js';

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

type Call = () => Promise<void>;

/** Each bounded call on `store`, as a call that checks its own answer. */
async function calls({ driver, clock }: ScaleStore): Promise<Record<string, Call>> {
  let published = 0;
  // Finished rows to delete one per sample, picked before the clock starts.
  const doomed = [...(await driver.list({ state: 'completed', limit: COST_SAMPLES })).jobs];
  return {
    'claim 10 and ack them': async () => {
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
    },
    publish: async () => {
      published += 1;
      await driver.events.publish(`ping-${published}`, { published });
    },
    'delete one job': async () => {
      const job = doomed.pop();
      if (job === undefined)
        throw new Error('the scale world holds fewer completed rows than samples');
      expect((await driver.delete(job.id)).id).toBe(job.id);
    },
    'purge with limit 10': async () => {
      const olderThan = clock.now() + 1;
      expect(await driver.purge({ states: ['completed'], olderThan, limit: LIMIT })).toBe(LIMIT);
    },
    'purgeExpired with limit 10': async () => {
      expect(await driver.events.purgeExpired({ limit: LIMIT })).toBe(LIMIT);
    },
  };
}

/**
 * The small backlog in the case's store and the big one in a second store from the same
 * factory, on the case's clock; each call is then measured on both, their samples in turn.
 */
async function measure(context: CaseContext, backlog: number) {
  const { clock } = context;
  const second = await context.factory({
    clock,
    hooks: {},
    lifecycleRetention: KIT_LIFECYCLE_RETENTION,
  });
  try {
    const small: ScaleStore = { driver: context.driver, clock };
    const big: ScaleStore = { driver: second.driver, clock };
    await seed(small, Math.floor(backlog / SMALL_SHARE));
    await seed(big, backlog);
    const [onSmall, onBig] = [await calls(small), await calls(big)];
    const measured: Record<string, { small: number; big: number }> = {};
    for (const [call, work] of Object.entries(onSmall)) {
      measured[call] = await costs(work, onBig[call] ?? work);
    }
    return measured;
  } finally {
    await second.dispose();
  }
}

const scaleCases: readonly KitCase[] = [
  {
    title:
      'claim, publish, purge, purgeExpired and delete cost about the same behind a large backlog of ready, future, lapsed, finished, suspended and expired rows as behind a small one; a bounded purge removes exactly its limit',
    timeoutMs: 300_000,
    costMs: 12_000,
    run: async (context) => {
      const backlog = Math.max(
        MIN_SCALE_BACKLOG,
        context.options.scaleBacklog ?? DEFAULT_SCALE_BACKLOG,
      );
      const measured = await measure(context, backlog);
      const grown = Object.entries(measured)
        .map(([call, ms]) => [call, ms.big / ms.small] as const)
        .filter(([, ratio]) => ratio >= MAX_RATIO);
      expect(
        grown,
        `calls that grew with the backlog (${Math.floor(backlog / SMALL_SHARE)} → ${backlog} rows of each kind): ${JSON.stringify(measured)}`,
      ).toEqual([]);
    },
  },
];

/**
 * D8: no call's cost grows with the backlog, shown by a ratio measured in the same case, the
 * two backlogs side by side in two stores of the factory.
 */
export const scaleGroup: KitGroup = { name: 'scale', cases: scaleCases };
