import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver, type PgDriver } from '../src/index.js';
import { dropSchema, freshSchema } from './pg-factory.js';

const CLAIMERS = 8;
const JOBS = 1_000;

describe('pg under concurrency', () => {
  const schema = freshSchema();
  const pools: pg.Pool[] = [];
  const drivers: PgDriver[] = [];

  beforeAll(async () => {
    const url = await serverUrl('pg');
    for (let n = 0; n < CLAIMERS; n += 1) {
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      pools.push(pool);
      drivers.push(createPgDriver({ pool, schema }));
    }
    // Every process may migrate at boot: all eight at once reach the same version.
    const results = await Promise.all(drivers.map((driver) => driver.migrate()));
    expect(new Set(results.map((result) => result.version)).size).toBe(1);
    // Each version is applied by exactly one of them.
    expect(results.flatMap((result) => result.applied).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
    ]);
  });

  afterAll(async () => {
    await Promise.all(drivers.map((driver) => driver.close()));
    await Promise.all(pools.map((pool) => pool.end()));
    await dropSchema(schema);
  });

  it('eight claimers on one table never hand out one row twice: 1,000 jobs, each acked once', async () => {
    const [first] = drivers;
    if (first === undefined) throw new Error('no driver');
    const made = new Set<string>();
    for (let start = 0; start < JOBS; start += 250) {
      const batch = Array.from({ length: 250 }, (_, n) => ({ name: 'race', payload: start + n }));
      for (const answer of await first.enqueueMany(batch)) made.add(answer.id);
    }
    expect(made.size).toBe(JOBS);

    const acked: string[] = [];
    const claimer = async (driver: PgDriver, workerId: string) => {
      for (let idle = 0; idle < 3; ) {
        const jobs = await driver.claim({
          queues: ['default'],
          limit: 7,
          workerId,
          visibilityTimeoutMs: 60_000,
        });
        if (jobs.length === 0) {
          idle += 1;
          continue;
        }
        idle = 0;
        const landed = await driver.ackMany(
          jobs.map((job) => ({ fence: { jobId: job.id, workerId, claim: job.claim } })),
        );
        expect(landed.every(Boolean)).toBe(true);
        acked.push(...jobs.map((job) => job.id));
      }
    };
    await Promise.all(drivers.map((driver, n) => claimer(driver, `claimer-${n}`)));

    expect(acked.length).toBe(JOBS);
    expect(new Set(acked)).toEqual(made);
    const [stats] = await first.stats();
    expect(stats?.counts.completed).toBe(JOBS);
    expect(stats?.counts.running).toBe(0);
    const claims = (await first.list({ limit: 500 })).jobs.map((job) => job.claim);
    expect(new Set(claims)).toEqual(new Set([1]));
  }, 120_000);

  it('two concurrent enqueues with one idempotency key make one job', async () => {
    const [a, b] = drivers;
    if (a === undefined || b === undefined) throw new Error('no drivers');
    for (let round = 0; round < 25; round += 1) {
      const request = { name: 'once', queue: 'keys', idempotencyKey: `key-${round}` };
      const answers = await Promise.all([a.enqueue(request), b.enqueue(request)]);
      expect(new Set(answers.map((answer) => answer.id)).size).toBe(1);
      expect(answers.map((answer) => answer.deduped).sort()).toEqual([false, true]);
    }
    const rows = (await a.list({ queue: 'keys', limit: 500 })).jobs;
    expect(rows).toHaveLength(25);
  });

  it('two concurrent batches holding one key make one job and answer it to both', async () => {
    const [a, b] = drivers;
    if (a === undefined || b === undefined) throw new Error('no drivers');
    const batch = [
      { name: 'batch', queue: 'batches', idempotencyKey: 'shared' },
      { name: 'batch', queue: 'batches' },
    ];
    const [left, right] = await Promise.all([a.enqueueMany(batch), b.enqueueMany(batch)]);
    expect(left?.[0]?.id).toBe(right?.[0]?.id);
    expect([left?.[0]?.deduped, right?.[0]?.deduped].sort()).toEqual([false, true]);
    expect((await a.list({ queue: 'batches', limit: 500 })).jobs).toHaveLength(3);
  });
});
