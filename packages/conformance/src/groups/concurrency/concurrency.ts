import { expect } from 'vitest';
import type { KitCase, KitGroup } from '../../kit.js';
import { freshQueue, WORKER } from '../fixtures/index.js';
import { concurrencySettleCases } from './concurrency-settle.js';
import { fleet, rotate, settleAll } from './concurrency-support.js';

const CLAIM_ROWS = 2_000;
const HOUR = 3_600_000;

const enqueueCases: readonly KitCase[] = [
  {
    title:
      'enqueues of one key racing from several drivers make one row; every other answer is deduped to it',
    timeoutMs: 60_000,
    run: async (context) => {
      const drivers = await fleet(context);
      for (let round = 0; round < 5; round += 1) {
        const key = `order-${round}`;
        const { values, errors } = await settleAll(
          drivers.flatMap((driver) =>
            Array.from(
              { length: 4 },
              () => () => driver.enqueue({ name: 'charge', idempotencyKey: key }),
            ),
          ),
        );
        expect(errors).toEqual([]);
        const ids = new Set(values.map((answer) => answer.id));
        expect(ids.size).toBe(1);
        expect(values.filter((answer) => !answer.deduped)).toHaveLength(1);
      }
      const { jobs } = await context.driver.list({ limit: 500 });
      expect(jobs).toHaveLength(5);
    },
  },
  {
    title:
      'enqueueMany batches sharing keys, racing from several drivers, make one row per key and dedupe every other item to it',
    timeoutMs: 60_000,
    run: async (context) => {
      const drivers = await fleet(context);
      const keys = Array.from({ length: 40 }, (_, index) => `k${index}`);
      const { values, errors } = await settleAll(
        drivers.map(
          (driver, index) => () =>
            driver.enqueueMany(
              rotate(keys, index * 7).map((key) => ({ name: 'sync', idempotencyKey: key })),
            ),
        ),
      );
      expect(errors).toEqual([]);
      const holder = new Map<string, string>();
      let fresh = 0;
      values.forEach((answers, index) => {
        rotate(keys, index * 7).forEach((key, at) => {
          const answer = answers[at];
          if (answer === undefined) throw new Error(`no answer for ${key}`);
          if (!answer.deduped) fresh += 1;
          expect(holder.get(key) ?? answer.id, `key ${key}`).toBe(answer.id);
          holder.set(key, answer.id);
        });
      });
      expect(fresh).toBe(keys.length);
      expect(new Set(holder.values()).size).toBe(keys.length);
      const { jobs } = await context.driver.list({ limit: 500 });
      expect(jobs.map((job) => job.id).sort()).toEqual([...holder.values()].sort());
    },
  },
];

const claimCases: readonly KitCase[] = [
  {
    title: `several drivers claiming ${CLAIM_ROWS} rows at once hand out every row exactly once`,
    timeoutMs: 120_000,
    run: async (context) => {
      const queue = freshQueue();
      for (let made = 0; made < CLAIM_ROWS; made += 1_000) {
        await context.driver.enqueueMany(
          Array.from({ length: 1_000 }, () => ({ name: 'work', queue })),
        );
      }
      const drivers = await fleet(context);
      const claimer = async (index: number): Promise<string[]> => {
        const mine: string[] = [];
        for (;;) {
          const claimed = await drivers[index]?.claim({
            queues: [queue],
            limit: 25,
            workerId: `${WORKER}-${index}`,
            visibilityTimeoutMs: HOUR,
          });
          if (claimed === undefined || claimed.length === 0) return mine;
          for (const job of claimed) {
            expect(job.claimedBy).toBe(`${WORKER}-${index}`);
            mine.push(job.id);
          }
        }
      };
      // Two claimers per driver: overlapping calls on one connection pool too.
      const { values, errors } = await settleAll(
        [...drivers, ...drivers].map((_, index) => () => claimer(index % drivers.length)),
      );
      expect(errors).toEqual([]);
      const handed = values.flat();
      expect(handed).toHaveLength(CLAIM_ROWS);
      expect(new Set(handed).size).toBe(CLAIM_ROWS);
      const [stats] = await context.driver.stats();
      expect(stats?.counts.running).toBe(CLAIM_ROWS);
      expect(stats?.counts.ready).toBe(0);
    },
  },
];

/** Races whose answers are refusals: each must be the contract's code, never DRIVER_UNAVAILABLE. */
export const concurrencyGroup: KitGroup = {
  name: 'concurrency',
  cases: [...enqueueCases, ...claimCases, ...concurrencySettleCases],
};
