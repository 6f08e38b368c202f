/**
 * The transactional outbox, PostgreSQL → Redis: how fast a relay moves a backlog of staged jobs
 * into the queue, and how long an idle relay takes from a staging transaction's COMMIT to the
 * job's enqueue (the LISTEN/NOTIFY wake). Not part of `pnpm bench`:
 *
 *   pnpm --filter @berth/bench exec tsx --conditions=@berth/source src/outbox.ts [--rows 20000] [--rounds 3] [--samples 200]
 *
 * Servers: BERTH_PG_URL (else 127.0.0.1:5432/test) and BERTH_REDIS_URL (else 127.0.0.1:6379, db 9);
 * each round uses an outbox schema and a queue prefix of its own, removed after.
 */
import { randomUUID } from 'node:crypto';
import { createOutboxRelay, type Driver, defineJob } from '@berth/core';
import { createPgOutbox } from '@berth/driver-pg';
import { createRedisDriver } from '@berth/driver-redis';
import pg from 'pg';

const arg = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const ROWS = arg('rows', 20_000);
const ROUNDS = arg('rounds', 3);
const SAMPLES = arg('samples', 200);
const PG_URL = process.env.BERTH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BERTH_REDIS_URL ?? 'redis://127.0.0.1:6379/9';

const note = defineJob<{ n: number }>({ name: 'outbox.bench', run: async () => {} });

async function withRound<T>(
  run: (parts: {
    pool: pg.Pool;
    outbox: ReturnType<typeof createPgOutbox>;
    queue: Driver;
  }) => Promise<T>,
): Promise<T> {
  const pool = new pg.Pool({ connectionString: PG_URL, max: 8 });
  const schema = `outbox_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const outbox = createPgOutbox({ pool, schema });
  const queue = createRedisDriver({
    url: REDIS_URL,
    prefix: `outbox-bench-${randomUUID().slice(0, 8)}`,
  });
  await outbox.migrate();
  try {
    return await run({ pool, outbox, queue });
  } finally {
    await queue.purge({ states: ['ready'], olderThan: Date.now() + 60_000 }).catch(() => {});
    await queue.close();
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await outbox.close();
    await pool.end();
  }
}

/** Stages `rows` jobs, 100 per transaction, then times one relay draining them. */
async function throughput(): Promise<{ rowsPerS: number; cpuUsPerRow: number }> {
  return withRound(async ({ pool, outbox, queue }) => {
    const client = await pool.connect();
    for (let first = 0; first < ROWS; first += 100) {
      await client.query('BEGIN');
      for (let n = first; n < Math.min(ROWS, first + 100); n += 1) {
        await outbox.stage(client, note, { n });
      }
      await client.query('COMMIT');
    }
    client.release();
    const relay = createOutboxRelay({ store: outbox.store, driver: queue, batchSize: 1_000 });
    const cpu = process.cpuUsage();
    const started = performance.now();
    const moved = await relay.drain();
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (moved !== ROWS) throw new Error(`relayed ${moved} of ${ROWS}`);
    return { rowsPerS: (ROWS / ms) * 1_000, cpuUsPerRow: (used.user + used.system) / ROWS };
  });
}

/** One job per transaction to an idle, started relay: COMMIT → the relay's enqueue answered. */
async function latency(): Promise<number[]> {
  return withRound(async ({ pool, outbox, queue }) => {
    let told: (at: number) => void = () => {};
    const watched: Driver = {
      ...queue,
      enqueueMany: async (requests) => {
        const answers = await queue.enqueueMany(requests);
        told(performance.now());
        return answers;
      },
    };
    const relay = createOutboxRelay({
      store: outbox.store,
      driver: watched,
      pollIntervalMs: 60_000,
    });
    await relay.start();
    const client = await pool.connect();
    const samples: number[] = [];
    try {
      for (let n = 0; n < SAMPLES; n += 1) {
        // An idle gap, so each sample starts from a relay waiting on LISTEN.
        await new Promise((resolve) => setTimeout(resolve, 20));
        const enqueued = new Promise<number>((resolve) => {
          told = resolve;
        });
        await client.query('BEGIN');
        await outbox.stage(client, note, { n });
        const committing = performance.now();
        await client.query('COMMIT');
        samples.push((await enqueued) - committing);
      }
    } finally {
      client.release();
      await relay.stop();
    }
    return samples;
  });
}

const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

const rates: number[] = [];
const cpus: number[] = [];
const p50s: number[] = [];
const p95s: number[] = [];
for (let round = 1; round <= ROUNDS; round += 1) {
  const { rowsPerS, cpuUsPerRow } = await throughput();
  const samples = await latency();
  rates.push(rowsPerS);
  cpus.push(cpuUsPerRow);
  p50s.push(quantile(samples, 0.5));
  p95s.push(quantile(samples, 0.95));
  console.log(
    `round ${round}: relay ${Math.round(rowsPerS)} rows/s (${cpuUsPerRow.toFixed(1)} µs CPU/row, relay process), COMMIT→enqueue p50 ${quantile(samples, 0.5).toFixed(2)} ms, p95 ${quantile(samples, 0.95).toFixed(2)} ms`,
  );
}
const span = (values: number[], digits: number) =>
  `${quantile(values, 0.5).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
console.log(
  `median of ${ROUNDS}: relay ${span(rates, 0)} rows/s, ${span(cpus, 1)} µs CPU/row; COMMIT→enqueue p50 ${span(p50s, 2)} ms, p95 ${span(p95s, 2)} ms`,
);
