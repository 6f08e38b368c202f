import { setTimeout as sleep } from 'node:timers/promises';
import type { Driver } from '@berth/core';
import { pollUntil, serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { announce } from '../src/settle-presence.js';
import { settleChannel } from '../src/sql/schema.js';
import { IDS_PER_NOTICE, WATCH_SLOTS } from '../src/sql/settle-notice.js';
import { adminPool, openPgDriver } from './pg-factory.js';

/** A plain LISTEN on the settle channel: hears what is sent, announces nothing. */
async function eavesdrop(schema: string) {
  const client = new pg.Client({ connectionString: await serverUrl('pg') });
  await client.connect();
  const payloads: string[] = [];
  client.on('notification', (message) => payloads.push(message.payload ?? ''));
  await client.query(`LISTEN "${settleChannel(schema)}"`);
  return { payloads, end: () => client.end() };
}

/** The presence slots of `schema`'s settle channel held right now, by any session. */
async function presenceHeld(schema: string): Promise<number> {
  const { rows } = await (await adminPool()).query<{ n: string }>(
    `SELECT count(*) AS n FROM pg_locks l
     JOIN (SELECT hashtextextended($1, s) AS k FROM generate_series(0, $2 - 1) s) keys
       ON l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
       AND l.classid::bigint = (keys.k >> 32) & 4294967295
       AND l.objid::bigint = keys.k & 4294967295`,
    [settleChannel(schema), WATCH_SLOTS],
  );
  return Number(rows[0]?.n ?? 0);
}

async function running(driver: Driver, count: number, queue = 'q') {
  await driver.enqueueMany(Array.from({ length: count }, () => ({ name: 'x', queue })));
  const jobs = await driver.claim({
    queues: [queue],
    workerId: 'w',
    visibilityTimeoutMs: 60_000,
    limit: count,
  });
  expect(jobs).toHaveLength(count);
  return jobs.map((job) => ({ jobId: job.id, workerId: 'w', claim: job.claim }));
}

describe('pg settle notices', () => {
  it('an ack sends no NOTIFY while nobody watches; once a watch begins every settle does, and after the last watch ends none does', async () => {
    const { driver, schema, dispose } = await openPgDriver();
    const heard = await eavesdrop(schema);
    try {
      const [first, second, third] = await running(driver, 3);
      if (first === undefined || second === undefined || third === undefined) throw new Error();
      expect(await driver.ack(first)).toBe(true);
      const watched: string[] = [];
      const unwatch = await driver.watchSettles?.((ids) => watched.push(...ids));
      if (unwatch === undefined) throw new Error('the pg driver should offer watchSettles');
      expect(await presenceHeld(schema)).toBe(WATCH_SLOTS);
      expect(await driver.ackMany([{ fence: second }])).toEqual([true]);
      await pollUntil(() => watched.length > 0, { everyMs: 5 });
      expect(watched).toEqual([second.jobId]);
      await unwatch();
      expect(await presenceHeld(schema)).toBe(0);
      expect(await driver.ack(third)).toBe(true);
      await sleep(200);
      expect(heard.payloads).toEqual([second.jobId]);
    } finally {
      await heard.end();
      await dispose();
    }
  });

  it(`an ackMany of 450 jobs sends its ids in payloads of at most ${IDS_PER_NOTICE}, each under 8000 bytes`, async () => {
    const { driver, schema, dispose } = await openPgDriver();
    const heard = await eavesdrop(schema);
    try {
      const fences = await running(driver, 450);
      const unwatch = await driver.watchSettles?.(() => {});
      expect(await driver.ackMany(fences.map((fence) => ({ fence })))).toEqual(
        fences.map(() => true),
      );
      await pollUntil(() => heard.payloads.length >= 3, { everyMs: 5 });
      await sleep(100);
      expect(heard.payloads).toHaveLength(3);
      for (const payload of heard.payloads) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
      const ids = heard.payloads.flatMap((payload) => payload.split(','));
      expect(ids.sort()).toEqual(fences.map((fence) => fence.jobId).sort());
      await unwatch?.();
    } finally {
      await heard.end();
      await dispose();
    }
  });

  it('a watch that begins while an ack holds its presence slot begins after that ack commits, so its wait reads the ack', async () => {
    const { driver, schema, dispose } = await openPgDriver();
    const acker = new pg.Client({ connectionString: await serverUrl('pg') });
    await acker.connect();
    try {
      // What an ack statement's probe does when nobody watches: its slot, held to its commit.
      await acker.query('BEGIN');
      const { rows } = await acker.query<{ free: boolean }>(
        `SELECT pg_try_advisory_xact_lock(hashtextextended($1, pg_backend_pid() % $2)) AS free`,
        [settleChannel(schema), WATCH_SLOTS],
      );
      expect(rows[0]?.free).toBe(true);
      let begun = false;
      const watching = driver
        .watchSettles?.(() => {})
        .then((unwatch) => {
          begun = true;
          return unwatch;
        });
      await sleep(300);
      expect(begun).toBe(false);
      await acker.query('COMMIT');
      const unwatch = await watching;
      expect(begun).toBe(true);
      expect(await presenceHeld(schema)).toBe(WATCH_SLOTS);
      await unwatch?.();
    } finally {
      await acker.end();
      await dispose();
    }
  });

  it('a presence slot a settling transaction keeps past the deadline fails the announce, which gives back the slots it took; after that commit an announce takes them all', async () => {
    const { driver, schema, dispose } = await openPgDriver();
    const acker = new pg.Client({ connectionString: await serverUrl('pg') });
    const watcher = new pg.Client({ connectionString: await serverUrl('pg') });
    await Promise.all([acker.connect(), watcher.connect()]);
    try {
      await acker.query('BEGIN');
      await acker.query(
        `SELECT pg_try_advisory_xact_lock(hashtextextended($1, pg_backend_pid() % $2))`,
        [settleChannel(schema), WATCH_SLOTS],
      );
      await expect(announce(watcher, settleChannel(schema), 200)).rejects.toThrow(
        /1 presence slots .* stayed held/,
      );
      expect(await presenceHeld(schema)).toBe(1);
      await acker.query('COMMIT');
      await announce(watcher, settleChannel(schema), 200);
      expect(await presenceHeld(schema)).toBe(WATCH_SLOTS);
      await driver.close();
    } finally {
      await Promise.all([acker.end(), watcher.end()]);
      await dispose();
    }
  });

  it('close ends a watch: its presence slots are given back with the connection', async () => {
    const { driver, schema, dispose } = await openPgDriver();
    try {
      await driver.watchSettles?.(() => {});
      expect(await presenceHeld(schema)).toBe(WATCH_SLOTS);
      await driver.close();
      await pollUntil(async () => (await presenceHeld(schema)) === 0, {
        withinMs: 3_000,
        everyMs: 10,
      });
    } finally {
      await dispose();
    }
  });
});
