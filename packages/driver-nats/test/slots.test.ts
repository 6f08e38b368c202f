import { createManualClock, type Driver } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNatsDriver } from '../src/index.js';
import { SHARD } from '../src/slots.js';
import { dropPrefix, freshPrefix } from './nats-factory.js';

const T0 = Date.UTC(2026, 0, 1);
const LIMIT = 4_000;
const SMALL = 20;
const LARGE = 1_000;
const TTL = 600_000;

/**
 * A slot key's holders live in shards of SHARD places each, one aux key per shard: no stored
 * value grows with the limit or the holders, and a call sends as many messages to a key with
 * 1,000 holders as to one with 20.
 */
let url: string;
let nc: NatsConnection;
let prefix: string;
let driver: Driver;

const sent = async (call: () => Promise<unknown>): Promise<number> => {
  const before = nc.stats().outMsgs;
  await call();
  return nc.stats().outMsgs - before;
};

async function fill(key: string, holders: number, limit: number): Promise<void> {
  for (let start = 0; start < holders; start += 100) {
    const chunk = Array.from({ length: Math.min(100, holders - start) }, (_, at) =>
      driver.leases.acquireSlot(key, limit, `holder-${start + at}`, TTL),
    );
    expect(new Set(await Promise.all(chunk))).toEqual(new Set([true]));
  }
}

/** Every call of a holder's life on `key`, and the messages each sent. */
async function costs(key: string, limit = LIMIT): Promise<Record<string, number>> {
  const { leases } = driver;
  return {
    'acquire a new slot': await sent(async () => {
      expect(await leases.acquireSlot(key, limit, 'measured', TTL)).toBe(true);
    }),
    'acquire again (renews)': await sent(async () => {
      expect(await leases.acquireSlot(key, limit, 'measured', TTL)).toBe(true);
    }),
    renew: await sent(async () => {
      expect(await leases.renewSlot(key, 'measured', TTL)).toBe(true);
    }),
    release: await sent(async () => {
      expect(await leases.releaseSlot(key, 'measured')).toBe(true);
    }),
  };
}

beforeAll(async () => {
  url = await serverUrl('nats');
  nc = await connect({ servers: url });
  prefix = freshPrefix();
  driver = createNatsDriver({ connection: nc, prefix, clock: createManualClock(T0) });
});

afterAll(async () => {
  await driver.close();
  await nc.close();
  await dropPrefix(url, prefix);
});

describe('nats slots', () => {
  it('acquire, renew and release send as many messages with 1,000 holders on the key as with 20, and no value holds more than a shard', async () => {
    await fill('small', SMALL, LIMIT);
    await fill('large', LARGE, LIMIT);
    const small = await costs('small');
    const large = await costs('large');
    expect(large).toEqual(small);
    // The screen's largest limit costs the same: a limit only says how many shards there are.
    expect(await costs('million', 1_000_000)).toEqual(small);
    expect(Math.max(...Object.values(large))).toBeLessThanOrEqual(5);
    const kv = await new Kvm(nc).open(`${prefix}_aux`);
    let biggest = 0;
    for await (const key of await kv.keys('s.*.*')) {
      const entry = await kv.get(key);
      if (entry === null || entry.operation !== 'PUT') continue;
      const doc = entry.json<{ holders?: Record<string, unknown> }>();
      biggest = Math.max(biggest, Object.keys(doc.holders ?? {}).length);
    }
    expect(biggest).toBeGreaterThan(0);
    expect(biggest).toBeLessThanOrEqual(SHARD);
  }, 120_000);

  it('a key at its limit answers a refusal from its full marker, and a release voids the marker', async () => {
    const { leases } = driver;
    const limit = 2 * SHARD;
    await fill('full', limit, limit);
    // The first refusal reads every shard once and writes the marker; the next ones read it.
    const first = await sent(() => leases.acquireSlot('full', limit, 'late-1', TTL));
    const again = await sent(async () => {
      expect(await leases.acquireSlot('full', limit, 'late-2', TTL)).toBe(false);
    });
    expect(first).toBeGreaterThan(again);
    expect(again).toBe(3);
    expect(await leases.releaseSlot('full', 'holder-7')).toBe(true);
    expect(await leases.acquireSlot('full', limit, 'late-2', TTL)).toBe(true);
    expect(await leases.acquireSlot('full', limit, 'late-3', TTL)).toBe(false);
  }, 120_000);
});
