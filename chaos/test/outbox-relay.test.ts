import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { defineJob, MAX_JOB_PAGE } from '@berth/core';
import { createPgOutbox } from '@berth/driver-pg';
import { createRedisDriver } from '@berth/driver-redis';
import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { expect, it } from 'vitest';
import { childArgs } from '../src/child-command.ts';
import { startServer } from '../src/servers/index.ts';

const RELAY = new URL('../src/child/relay-main.ts', import.meta.url);
const RELAYS = 3;
/** Jobs the producer commits; the crash comes once CRASH_AT of them are in. */
const JOBS = 1_000;
const CRASH_AT = 400;
/** At least this many relay SIGKILLs, however fast the producer is. */
const MIN_KILLS = 6;
const note = defineJob<{ n: number }>({ name: 'outbox.chaos', run: async () => {} });

// The outbox through relay SIGKILLs and a crash of the queue's server: a producer stages jobs in
// its own transactions (a few per commit) while three relay processes move them into a private
// Redis (appendfsync always), one relay SIGKILLed every 300-700 ms (at least MIN_KILLS times) and
// started again, and the Redis server SIGKILLed once CRASH_AT jobs are in, and restarted. Every committed job must be in the queue exactly
// once, and the outbox empty.
it('outbox: every committed job is relayed exactly once through relay SIGKILLs and a queue-server crash', async () => {
  const redis = await startServer('redis');
  const pgUrl = await serverUrl('pg');
  const schema = `chaos_outbox_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const prefix = `outbox-${randomUUID().slice(0, 8)}`;
  const pool = new pg.Pool({ connectionString: pgUrl, max: 4 });
  const outbox = createPgOutbox({ pool, schema });
  const queue = createRedisDriver({ url: redis.url, prefix });
  const relays = new Set<ChildProcess>();
  let kills = 0;
  const spawnRelay = () => {
    const child = spawn(
      process.execPath,
      [...childArgs(RELAY), JSON.stringify({ pgUrl, schema, redisUrl: redis.url, prefix })],
      { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] },
    );
    relays.add(child);
    child.once('exit', () => relays.delete(child));
  };
  try {
    await outbox.migrate();
    for (let n = 0; n < RELAYS; n += 1) spawnRelay();
    const committed: string[] = [];
    let produced = false;
    const producing = (async () => {
      const client = await pool.connect();
      try {
        for (let n = 0; committed.length < JOBS; ) {
          await client.query('BEGIN');
          const ids: string[] = [];
          for (let k = 1 + (n % 5); k > 0; k -= 1, n += 1) {
            ids.push((await outbox.stage(client, note, { n })).id);
          }
          await client.query('COMMIT');
          committed.push(...ids);
          await sleep(5);
        }
      } finally {
        client.release();
        produced = true;
      }
    })();
    const killing = (async () => {
      while (!produced || kills < MIN_KILLS) {
        await sleep(300 + Math.floor(Math.random() * 400));
        const [victim] = [...relays];
        if (victim === undefined) continue;
        victim.kill('SIGKILL');
        kills += 1;
        spawnRelay();
      }
    })();
    const crashing = (async () => {
      while (committed.length < CRASH_AT) await sleep(20);
      await redis.crash();
      await sleep(1_000);
      await redis.restart();
    })();
    await Promise.all([producing, killing, crashing]);

    // The relays that live on finish the outbox.
    const left = async () =>
      Number((await pool.query(`SELECT count(*) AS n FROM "${schema}".outbox`)).rows[0]?.n ?? -1);
    const deadline = Date.now() + 60_000;
    while ((await left()) > 0 && Date.now() < deadline) await sleep(100);
    expect(await left()).toBe(0);
    const records = await Promise.all(committed.map((id) => queue.get(id)));
    const lost = committed.filter((_, index) => records[index] === undefined);
    expect(lost).toEqual([]);
    // Every job of the run is one of the committed ones, each once.
    let listed = 0;
    for (let after: string | undefined, more = true; more; ) {
      const page = await queue.list({
        name: 'outbox.chaos',
        limit: MAX_JOB_PAGE,
        ...(after === undefined ? {} : { after }),
      });
      listed += page.jobs.length;
      after = page.next;
      more = after !== undefined;
    }
    expect(listed).toBe(new Set(committed).size);
    console.log(
      `outbox chaos: ${committed.length} jobs committed, ${kills} relay SIGKILLs, 1 redis crash: 0 lost, 0 twice`,
    );
  } finally {
    for (const relay of relays) relay.kill('SIGKILL');
    await queue.close().catch(() => {});
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await pool.end();
    await redis.stop();
  }
}, 120_000);
