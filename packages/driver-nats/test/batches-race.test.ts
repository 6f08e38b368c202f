import type { Driver } from '@berth/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createNatsDriver } from '../src/index.js';
import { natsDriver } from './nats-factory.js';

const SIBLINGS = 8;
const ROUNDS = 3;
const KEYS = 40;

/**
 * Suspected in issue 21: enqueueMany batches sharing idempotency keys abort each other until the
 * 16-round limit. Cleared: batches in opposite key orders, on their own connections, all land
 * or dedupe, round after round (a probe of 15 rounds of 8 batches of 100 keys failed none).
 */
let made: Awaited<ReturnType<typeof natsDriver>>;
let siblings: Driver[];

beforeAll(async () => {
  made = await natsDriver();
  siblings = Array.from({ length: SIBLINGS }, () =>
    createNatsDriver({ servers: made.url, prefix: made.prefix }),
  );
});

afterAll(async () => {
  await Promise.all(siblings.map((driver) => driver.close()));
  await made.dispose();
});

it('batches sharing every key, in opposite orders on 8 connections, all answer and make one job per key', async () => {
  for (let round = 0; round < ROUNDS; round += 1) {
    const keys = Array.from({ length: KEYS }, (_, index) => `round-${round}-key-${index}`);
    const answers = await Promise.all(
      siblings.map((driver, index) =>
        driver.enqueueMany(
          keys.map((_, at) => ({
            name: 'batched',
            queue: `race-${round}`,
            idempotencyKey: keys[index % 2 === 0 ? at : KEYS - 1 - at] as string,
          })),
        ),
      ),
    );
    const { jobs } = await made.driver.list({ queue: `race-${round}`, limit: 100 });
    expect(jobs).toHaveLength(KEYS);
    expect(new Set(answers.flat().map((answer) => answer.id))).toEqual(
      new Set(jobs.map((job) => job.id)),
    );
  }
}, 120_000);
