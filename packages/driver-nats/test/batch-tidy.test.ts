import { randomUUID } from 'node:crypto';
import { screenEnqueue } from '@berth/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newJob } from '../src/enqueue.js';
import { JobIndex } from '../src/index/job-index.js';

const T0 = Date.UTC(2026, 0, 1);
const SMALL = 100;
const LARGE = 5_000;
const LIMIT = 500;

/**
 * A purge tidies batch decisions: it drops those no row names, the rows of aborted ones, and
 * aborts those whose writer vanished. Its questions to the index must not cost more as the
 * keyed backlog grows (every keyed row still names the batch that committed it until its first
 * write): the same questions over a 50x larger backlog visit as many index entries.
 */
function world(backlog: number) {
  const index = new JobIndex();
  let revision = 0;
  const row = (batch: string, at = T0) => {
    const request = screenEnqueue({ name: 'work', idempotencyKey: randomUUID() }, 1_048_576);
    const create = newJob(request, randomUUID(), at);
    revision += 1;
    index.applyJob(create.id, { pending: { batch, solo: true, create } }, revision);
  };
  for (let n = 0; n < backlog; n += 1) {
    const batch = randomUUID();
    row(batch, T0 + 3_600_000);
    index.applyBatch(batch, 'committed');
  }
  const idle = [randomUUID(), randomUUID(), randomUUID()];
  for (const batch of idle) index.applyBatch(batch, 'committed');
  const aborted = [randomUUID(), randomUUID()];
  for (const batch of aborted) {
    row(batch);
    index.applyBatch(batch, 'aborted');
  }
  const undecided = [randomUUID(), randomUUID()];
  for (const batch of undecided) row(batch);
  return { index, idle, aborted, undecided };
}

/** Steps taken over every Map and Set iterator while `call` runs: the index entries it visits. */
function visits<T>(call: () => T): { answer: T; steps: number } {
  const prototypes = [new Map().entries(), new Set().values()].map(Object.getPrototypeOf);
  const spies = prototypes.map((prototype) => vi.spyOn(prototype, 'next'));
  try {
    const answer = call();
    return { answer, steps: spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0) };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the batch questions a purge asks the nats index', () => {
  it('visit as many entries over a 50x larger keyed backlog, and answer the same batches', () => {
    const [small, large] = [world(SMALL), world(LARGE)];
    const questions = [
      ['idle batches', (made: typeof small) => [made.index.idleBatches(LIMIT), made.idle]],
      ['aborted batches', (made: typeof small) => [made.index.abortedBatches(LIMIT), made.aborted]],
      [
        'undecided batches',
        (made: typeof small) => [made.index.undecidedBatches(T0 + 1, LIMIT), made.undecided],
      ],
    ] as const;
    for (const [what, ask] of questions) {
      const [fromSmall, fromLarge] = [visits(() => ask(small)), visits(() => ask(large))];
      expect(fromSmall.answer[0], what).toEqual(fromSmall.answer[1]);
      expect(fromLarge.answer[0], what).toEqual(fromLarge.answer[1]);
      expect(fromLarge.steps, what).toBe(fromSmall.steps);
    }
  });
});
