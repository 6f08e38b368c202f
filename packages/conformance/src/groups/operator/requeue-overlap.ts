import { isBerthError } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import { claimJob, fenceOf, mustGet, pause } from '../fixtures/index.js';

/** Rounds of the race: each overlaps the requeue's change at a slightly different point. */
const ROUNDS = 10;

export const requeueOverlapCases: readonly KitCase[] = [
  {
    title:
      'a stale ack and a cancel overlapping a keyed requeue never keep it from landing: the requeue answers ready, the ack false',
    run: async ({ driver, hooks, sibling }) => {
      const other = await sibling();
      for (let round = 0; round < ROUNDS; round += 1) {
        const queue = `overlap-${round}`;
        const { id } = await driver.enqueue({
          name: 'kit.overlap',
          queue,
          idempotencyKey: `overlap-${round}`,
        });
        const stale = fenceOf(await claimJob(driver, id, queue));
        expect(await driver.nack(stale, { error: { message: 'no' }, final: true })).toBe(true);
        let overlapping: Promise<[boolean, string]> | undefined;
        hooks.afterRequeueCheck = async () => {
          hooks.afterRequeueCheck = undefined;
          // Started a little later each round, answered whenever: beside the requeue's change.
          overlapping = pause(round % 5).then(() =>
            Promise.all([
              other.ack(stale, {}),
              other.cancel(id).then(
                (record) => record.state,
                (error: unknown) => (isBerthError(error) ? error.code : String(error)),
              ),
            ]),
          );
        };
        const requeued = await driver.requeue(id);
        expect([requeued.state, requeued.attempts]).toEqual(['ready', 0]);
        const [acked, cancelled] = (await overlapping) ?? [undefined, undefined];
        expect(acked).toBe(false);
        // The cancel came before the requeue (the row was dead) or after it (it cancels it).
        expect(['JOB_NOT_CANCELLABLE', 'cancelled']).toContain(cancelled);
        const after = await mustGet(driver, id);
        expect(after.state).toBe(cancelled === 'cancelled' ? 'cancelled' : 'ready');
      }
    },
  },
];
