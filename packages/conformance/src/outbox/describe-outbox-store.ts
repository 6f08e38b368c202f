import type { OutboxAdmin, OutboxStore, StagedRow } from '@berth/core';
import { afterEach, describe, expect, it } from 'vitest';
import { outboxWakeCases } from './outbox-wake.js';

/**
 * What an outbox store's author hands the kit: a fresh, empty outbox (its own table or schema),
 * and a way to stage rows in committed transactions of its own.
 */
export interface OutboxStoreUnderTest {
  readonly store: OutboxStore;
  readonly admin: OutboxAdmin;
  /** Stages `count` jobs named `kit.outbox` (payload `{ n }`) in one committed transaction; answers their ids in staging order. */
  stageJobs(count: number): Promise<string[]>;
  /** Stages a publish of event `name` in its own committed transaction; answers its id. */
  stageEvent(name: string): Promise<string>;
  dispose(): Promise<void>;
}

export type OutboxStoreFactory = () => Promise<OutboxStoreUnderTest>;

export interface OutboxKitCase {
  readonly title: string;
  readonly run: (outbox: OutboxStoreUnderTest) => Promise<void>;
}

const ids = (rows: readonly StagedRow[] | undefined) => (rows ?? []).map((row) => row.id);
const refusal = { code: 'JOB_INVALID', message: 'payload is not what the job takes' };

/** Every case of the outbox store kit, for runners other than vitest's `describe`. */
export const outboxStoreCases: readonly OutboxKitCase[] = [
  {
    title:
      'take answers the oldest staged rows in staging order, at most limit, jobs with their enqueue request and events with their name; undefined when none waits',
    run: async ({ store, stageJobs, stageEvent }) => {
      expect(await store.take(10)).toBeUndefined();
      const jobs = await stageJobs(3);
      const event = await stageEvent('kit.staged');
      const batch = await store.take(3);
      expect(ids(batch?.rows)).toEqual(jobs);
      expect(batch?.rows[0]).toMatchObject({
        kind: 'job',
        request: { name: 'kit.outbox', id: jobs[0] },
      });
      await batch?.finish({ relayed: jobs, dead: [] });
      const rest = await store.take(10);
      expect(rest?.rows).toEqual([
        expect.objectContaining({ kind: 'event', id: event, name: 'kit.staged' }),
      ]);
      await rest?.finish({ relayed: [event], dead: [] });
      expect(await store.take(10)).toBeUndefined();
    },
  },
  {
    title:
      'rows a batch holds are taken by no other take until it ends; abandon gives them back, in the same order, to the next take',
    run: async ({ store, stageJobs }) => {
      const staged = await stageJobs(4);
      const first = await store.take(2);
      const second = await store.take(10);
      expect(ids(first?.rows)).toEqual(staged.slice(0, 2));
      expect(ids(second?.rows)).toEqual(staged.slice(2));
      await first?.abandon();
      const again = await store.take(10);
      expect(ids(again?.rows)).toEqual(staged.slice(0, 2));
      await again?.abandon();
      await second?.abandon();
    },
  },
  {
    title:
      'finish: relayed rows leave, refused rows stay dead with the refusal (never taken again), and the rows behind them go on',
    run: async ({ store, admin, stageJobs }) => {
      const [a, b, c] = await stageJobs(3);
      const batch = await store.take(2);
      await batch?.finish({ relayed: [a as string], dead: [{ id: b as string, error: refusal }] });
      const behind = await store.take(10);
      expect(ids(behind?.rows)).toEqual([c]);
      await behind?.abandon();
      const dead = await admin.dead();
      expect(dead.map((row) => [row.row.id, row.refusal])).toEqual([[b, refusal]]);
      expect(dead[0]?.deadAt).toBeGreaterThanOrEqual(dead[0]?.stagedAt ?? Number.NaN);
      expect(await admin.stats()).toMatchObject({ staged: 1, dead: 1 });
    },
  },
  {
    title:
      'retry stages dead rows again and discard removes them; each answers only the ids that were dead, and a waiting row is neither',
    run: async ({ store, admin, stageJobs }) => {
      const [a, b, c] = (await stageJobs(3)) as [string, string, string];
      const batch = await store.take(3);
      await batch?.finish({
        relayed: [],
        dead: [
          { id: a, error: refusal },
          { id: b, error: refusal },
        ],
      });
      expect([...(await admin.retry([a, c]))].sort()).toEqual([a]);
      expect([...(await admin.discard([b, c]))].sort()).toEqual([b]);
      expect(await admin.dead()).toEqual([]);
      const again = await store.take(10);
      expect(ids(again?.rows).sort()).toEqual([a, c].sort());
      await again?.abandon();
      expect(await admin.stats()).toMatchObject({ staged: 2, dead: 0 });
    },
  },
  {
    title:
      'stats count rows waiting (held ones too) and dead ones, and name when the oldest waiting row was staged only while one waits',
    run: async ({ store, admin, stageJobs }) => {
      expect(await admin.stats()).toEqual({ staged: 0, dead: 0 });
      const before = Date.now();
      const staged = await stageJobs(2);
      const held = await store.take(1);
      const stats = await admin.stats();
      expect(stats).toMatchObject({ staged: 2, dead: 0 });
      expect(stats.oldestStagedAt).toBeGreaterThanOrEqual(before - 1_000);
      await held?.finish({ relayed: ids(held.rows), dead: [] });
      const rest = await store.take(10);
      await rest?.finish({ relayed: staged.slice(1), dead: [] });
      expect(await admin.stats()).toEqual({ staged: 0, dead: 0 });
    },
  },
  {
    title: 'two relays taking at once split the rows: no row is in both batches',
    run: async ({ store, stageJobs }) => {
      const staged = await stageJobs(20);
      const [one, two] = await Promise.all([store.take(15), store.take(15)]);
      const taken = [...ids(one?.rows), ...ids(two?.rows)];
      expect(new Set(taken).size).toBe(taken.length);
      expect(taken.length).toBe(20);
      expect(taken.sort()).toEqual([...staged].sort());
      await Promise.all([one?.abandon(), two?.abandon()]);
    },
  },
  ...outboxWakeCases,
];

/**
 * Registers the outbox store kit: every case on a fresh outbox from `factory`. What any
 * `OutboxStore` (with its `OutboxAdmin`) must answer for `createOutboxRelay` to relay each
 * staged row exactly once, in order, past refused rows.
 */
export function describeOutboxStore(name: string, factory: OutboxStoreFactory): void {
  describe(`${name} outbox store conformance`, () => {
    let open: OutboxStoreUnderTest | undefined;
    afterEach(async () => {
      await open?.dispose();
      open = undefined;
    });
    for (const kitCase of outboxStoreCases) {
      it(kitCase.title, async () => {
        open = await factory();
        await kitCase.run(open);
      });
    }
  });
}
