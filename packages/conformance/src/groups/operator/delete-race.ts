import { type ClaimedJob, isBerthError, type JobRecord } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import { settleAll } from '../concurrency/concurrency-support.js';
import { freshQueue, LEASE_MS } from '../fixtures/index.js';

/** Trials per race: each lands one way or the other, never both and never neither. */
const TRIALS = 20;

/** A race's loser answers a contract code; anything else fails the case. */
const codeOf = (error: unknown): string => (isBerthError(error) ? error.code : String(error));

/** Delete against another process: one contract answer each, one winner. */
export const deleteRaceCases: readonly KitCase[] = [
  {
    title:
      "a delete racing a sibling instance's claim of the same job: exactly one wins — the claim holds it and the delete answers JOB_NOT_DELETABLE, or the delete answers it and the claim answers nothing",
    timeoutMs: 60_000,
    run: async ({ driver, sibling }) => {
      const other = await sibling();
      const wins = { claim: 0, delete: 0 };
      for (let trial = 0; trial < TRIALS; trial += 1) {
        const queue = freshQueue();
        const { id } = await driver.enqueue({ name: 'kit.job', queue });
        const claim = other.claim({
          queues: [queue],
          workerId: `racer-${trial}`,
          visibilityTimeoutMs: LEASE_MS,
        });
        const removal = driver.delete(id);
        const [claimed, deleted] = await Promise.allSettled([claim, removal]);
        if (claimed.status === 'rejected') throw claimed.reason;
        const taken: readonly ClaimedJob[] = claimed.value;
        const after = await driver.get(id);
        if (deleted.status === 'fulfilled') {
          wins.delete += 1;
          const answer: JobRecord = deleted.value;
          expect([answer.id, answer.state]).toEqual([id, 'ready']);
          expect(taken).toEqual([]);
          expect(after).toBeUndefined();
        } else {
          wins.claim += 1;
          expect(codeOf(deleted.reason)).toBe('JOB_NOT_DELETABLE');
          expect(taken.map((job) => job.id)).toEqual([id]);
          expect(after?.state).toBe('running');
        }
      }
      expect(wins.claim + wins.delete).toBe(TRIALS);
    },
  },
  {
    title:
      'deletes of one job from several instances at once: one answers the record, every other JOB_NOT_FOUND',
    timeoutMs: 60_000,
    run: async ({ driver, sibling }) => {
      const drivers = [driver, await sibling(), await sibling()];
      for (let trial = 0; trial < TRIALS / 2; trial += 1) {
        const { id } = await driver.enqueue({ name: 'kit.job', queue: freshQueue() });
        const { values, errors } = await settleAll(drivers.map((d) => () => d.delete(id)));
        expect(values.map((job) => job.id)).toEqual([id]);
        expect(errors.map(codeOf)).toEqual(['JOB_NOT_FOUND', 'JOB_NOT_FOUND']);
        expect(await driver.get(id)).toBeUndefined();
      }
    },
  },
];
