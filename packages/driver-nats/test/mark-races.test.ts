import { randomUUID } from 'node:crypto';
import type { Driver, EnqueueResult, MarkedEnqueueRequest, MarkPassed } from '@berth/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNatsDriver } from '../src/index.js';
import { natsDriver } from './nats-factory.js';

const LEADERS = 4;
const SLOTS = 24;
const MARK = 'schedule:race';

/** Every slot's id, fixed up front as the scheduler derives it. */
const ids = Array.from({ length: SLOTS }, () => randomUUID());

const slot = (index: number): MarkedEnqueueRequest => ({
  id: ids[index] as string,
  name: 'cron',
  queue: 'cron',
  idempotencyKey: `slot:${index}`,
  advanceMark: { name: MARK, value: index },
});

/** Claims, acks and purges cron jobs until `done` and nothing is left; answers the ids it ran. */
async function runAndPurge(driver: Driver, done: () => boolean): Promise<string[]> {
  const ran: string[] = [];
  for (;;) {
    const finished = done();
    const jobs = await driver.claim({
      queues: ['cron'],
      limit: 5,
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
    });
    for (const job of jobs) {
      expect(await driver.ack({ jobId: job.id, workerId: 'w', claim: job.claim })).toBe(true);
      ran.push(job.id);
    }
    if (jobs.length > 0) {
      const purgeIds = jobs.map((job) => job.id);
      await driver.purge({ states: ['completed'], olderThan: Date.now() + 60_000, ids: purgeIds });
    } else if (finished) {
      return ran;
    }
  }
}

describe('nats enqueues with advanceMark racing on independent connections', () => {
  let made: Awaited<ReturnType<typeof natsDriver>>;
  let leaders: Driver[];

  beforeAll(async () => {
    made = await natsDriver();
    leaders = Array.from({ length: LEADERS }, () =>
      createNatsDriver({ servers: made.url, prefix: made.prefix }),
    );
  });

  afterAll(async () => {
    await Promise.all(leaders.map((driver) => driver.close()));
    await made.dispose();
  });

  it('4 leaders enqueuing the same slots while a worker runs and purges them: each slot runs once and is made once', async () => {
    let enqueuing = LEADERS;
    const answers: (EnqueueResult | MarkPassed)[][] = Array.from({ length: SLOTS }, () => []);
    const lead = async (driver: Driver, offset: number) => {
      // Each leader starts at its own slot and goes round: the slots are enqueued out of step.
      for (let step = 0; step < SLOTS; step += 1) {
        const index = (offset + step) % SLOTS;
        answers[index]?.push(await driver.enqueue(slot(index)));
      }
      enqueuing -= 1;
    };
    const [ran] = await Promise.all([
      runAndPurge(made.driver, () => enqueuing === 0),
      ...leaders.map((driver, index) => lead(driver, index * 3)),
    ]);
    const runs = new Map<string, number>();
    for (const id of ran ?? []) runs.set(id, (runs.get(id) ?? 0) + 1);
    // A slot whose enqueues all came after a higher slot raised the mark is passed, never run.
    for (const [index, id] of ids.entries()) {
      const jobs = (answers[index] ?? []).filter((answer) => !('markPassed' in answer));
      const fresh = jobs.filter((answer) => 'deduped' in answer && !answer.deduped);
      expect(runs.get(id) ?? 0, `slot ${index} runs`).toBe(jobs.length > 0 ? 1 : 0);
      expect(fresh.length, `slot ${index} made`).toBe(jobs.length > 0 ? 1 : 0);
    }
    expect(await made.driver.marks.get(MARK)).toBe(SLOTS - 1);
    expect((await made.driver.list({ queue: 'cron' })).jobs).toEqual([]);
  }, 60_000);
});
