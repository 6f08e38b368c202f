import { createMemoryDriver } from '@berth/driver-memory';
import { describe, expect, it } from 'vitest';
import {
  type BatchOutcome,
  createOutboxRelay,
  defineJob,
  type OutboxStore,
  type StagedRow,
  stagedJobRequest,
} from '../src/index.js';

const note = defineJob<{ n: number }>({ name: 'note', run: async () => {} });

/** A store in memory: rows leave on finish, a taken batch is held until finished or abandoned. */
function memoryStore(rows: StagedRow[]) {
  const waiting = [...rows];
  const outcomes: BatchOutcome[] = [];
  const store: OutboxStore = {
    async take(limit) {
      const taken = waiting.splice(0, limit);
      if (taken.length === 0) return undefined;
      return {
        rows: taken,
        async finish(outcome) {
          outcomes.push(outcome);
        },
        async abandon() {
          waiting.unshift(...taken);
        },
      };
    },
  };
  return { store, outcomes, waiting };
}

const job = async (n: number, options = {}): Promise<StagedRow> => {
  const request = await stagedJobRequest(note, { n }, options);
  return { kind: 'job', id: request.id, request };
};

describe('the outbox relay', () => {
  it('a key held with onConflict error refuses one row: that row is dead with JOB_DUPLICATE, the others relayed', async () => {
    const driver = createMemoryDriver();
    await driver.enqueue({ name: 'note', idempotencyKey: 'once', payload: null });
    const rows = [
      await job(1),
      await job(2, { idempotencyKey: 'once', onConflict: 'error' }),
      await job(3),
    ];
    const { store, outcomes } = memoryStore(rows);
    expect(await createOutboxRelay({ store, driver }).drain()).toBe(3);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]?.relayed).toEqual([rows[0]?.id, rows[2]?.id]);
    expect(outcomes[0]?.dead.map((dead) => [dead.id, dead.error.code])).toEqual([
      [rows[1]?.id, 'JOB_DUPLICATE'],
    ]);
  });

  it('an event between jobs is published in its place, and a refused event is dead', async () => {
    const driver = createMemoryDriver();
    const rows: StagedRow[] = [
      await job(1),
      { kind: 'event', id: 'e1', name: 'paid', payload: { n: 1 } },
      { kind: 'event', id: 'e2', name: '', payload: null },
      await job(2),
    ];
    const { store, outcomes } = memoryStore(rows);
    await createOutboxRelay({ store, driver }).drain();
    expect(outcomes[0]?.relayed).toEqual([rows[0]?.id, 'e1', rows[3]?.id]);
    expect(outcomes[0]?.dead.map((dead) => dead.id)).toEqual(['e2']);
    expect((await driver.events.find('paid', { after: 0 }))?.payload).toEqual({ n: 1 });
  });

  it('started, it relays what was staged before and what is staged later, woken by the store', async () => {
    const memory = createMemoryDriver();
    // Each enqueueMany the relay makes is told, so the test waits for it and for nothing else.
    const landed: string[][] = [];
    let told = () => {};
    const driver = {
      ...memory,
      enqueueMany: async (requests: Parameters<typeof memory.enqueueMany>[0]) => {
        const answers = await memory.enqueueMany(requests);
        landed.push(requests.map((request) => request.id ?? ''));
        told();
        return answers;
      },
    };
    const next = () =>
      new Promise<void>((resolve) => {
        told = resolve;
      });
    const first = await job(1);
    const { store, waiting } = memoryStore([first]);
    let wake = () => {};
    store.onStaged = async (listener) => {
      wake = listener;
      return async () => {};
    };
    // A poll an hour away: only the wake can make the second batch move.
    const relay = createOutboxRelay({ store, driver, pollIntervalMs: 3_600_000 });
    const firstLanded = next();
    await relay.start();
    try {
      await firstLanded;
      const later = await job(2);
      const laterLanded = next();
      waiting.push(later);
      wake();
      await laterLanded;
      expect(landed).toEqual([[first.id], [later.id]]);
    } finally {
      await relay.stop();
    }
  });
});
