import type { ClaimedJob, Driver } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import { fleet, settleAll } from '../concurrency/concurrency-support.js';
import { freshQueue, LEASE_MS, WORKER } from '../fixtures/index.js';

/** Trials of the cross-process case: a stale claimer loses some of them, not all. */
const TRIALS = 40;
/** Rows of the racing case, and what each claim asks for. */
const ROWS = 100;
const RACE_ROUNDS = 3;
const RACE_LIMIT = 3;

interface Seeded {
  readonly id: string;
  readonly priority: number;
  readonly runAt: number;
  readonly order: number;
}

/** Claim order: priority desc, then runAt asc, then insertion order. */
const claimOrder = (a: Seeded, b: Seeded): number =>
  b.priority - a.priority || a.runAt - b.runAt || a.order - b.order;

/** Each claimer claims once; answers every claim's rows, claimer by claimer. */
async function claimAtOnce(
  drivers: readonly Driver[],
  queue: string,
  round: number,
): Promise<{ workerId: string; jobs: readonly ClaimedJob[] }[]> {
  // Two claimers per driver: calls overlapping inside one process race too.
  const claimers = [...drivers, ...drivers].map((driver, index) => ({
    driver,
    workerId: `${WORKER}-${round}-${index}`,
  }));
  const { values, errors } = await settleAll(
    claimers.map(({ driver, workerId }) => async () => ({
      workerId,
      jobs: await driver.claim({
        queues: [queue],
        limit: RACE_LIMIT,
        workerId,
        visibilityTimeoutMs: LEASE_MS,
      }),
    })),
  );
  expect(errors).toEqual([]);
  return values;
}

/** Claims that span processes: what one process's write answered, every other's claim sees. */
export const claimSiblingsCases: readonly KitCase[] = [
  {
    title:
      "a claim sees every enqueue another driver's call answered before it began: that driver's priority-10 job comes before this driver's own priority-0 job",
    timeoutMs: 60_000,
    run: async ({ driver, sibling }) => {
      const other = await sibling();
      const skipped: number[] = [];
      for (let trial = 0; trial < TRIALS; trial += 1) {
        const queue = freshQueue();
        await driver.enqueue({ name: 'own', queue });
        const theirs = await other.enqueue({ name: 'theirs', queue, priority: 10 });
        const claimed = await driver.claim({
          queues: [queue],
          limit: 1,
          workerId: WORKER,
          visibilityTimeoutMs: LEASE_MS,
        });
        expect(claimed).toHaveLength(1);
        if (claimed[0]?.id !== theirs.id) skipped.push(trial);
      }
      expect(skipped, 'trials whose claim took its own lower-priority job').toEqual([]);
    },
  },
  {
    title:
      'claims racing from several drivers hand out exactly the first rows in claim order (priority desc, runAt asc, insertion order), none twice, each answer in claim order',
    timeoutMs: 60_000,
    run: async (context) => {
      const { driver, t0 } = context;
      const queue = freshQueue();
      const seeded: Seeded[] = [];
      for (let order = 0; order < ROWS; order += 1) {
        // Ties on priority and on runAt, so every key of the order decides somewhere.
        const priority = (order * 7) % 5;
        const runAt = t0 - ((order * 13) % 6) * 1_000;
        const { id } = await driver.enqueue({ name: 'raced', queue, priority, runAt });
        seeded.push({ id, priority, runAt, order });
      }
      const rank = new Map([...seeded].sort(claimOrder).map((row, at) => [row.id, at]));
      const drivers = await fleet(context);
      const handed: string[] = [];
      for (let round = 0; round < RACE_ROUNDS; round += 1) {
        const answers = await claimAtOnce(drivers, queue, round);
        for (const { jobs } of answers) handed.push(...jobs.map((job) => job.id));
        expect(new Set(handed).size, 'rows handed out twice').toBe(handed.length);
        const ranks = handed.map((id) => rank.get(id) ?? -1).sort((a, b) => a - b);
        expect(ranks, `ranks in claim order of the rows claimed by round ${round}`).toEqual(
          ranks.map((_, at) => at),
        );
        for (const { workerId, jobs } of answers) {
          const ranks = jobs.map((job) => rank.get(job.id) ?? -1);
          expect(ranks, `${workerId}'s answer, by rank in claim order`).toEqual(
            [...ranks].sort((a, b) => a - b),
          );
          for (const job of jobs) expect(job.claimedBy).toBe(workerId);
        }
      }
    },
  },
];
