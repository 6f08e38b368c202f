import { randomUUID } from 'node:crypto';
import type { Driver } from '@berth/core';
import { type NatsCluster, natsServerBinary, startNatsCluster } from '@berth/test-servers';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNatsDriver } from '../src/index.js';
import { freshPrefix } from './nats-factory.js';
import { rerouteRequests } from './reroute-requests.js';

// How the driver makes and reads replicated buckets, on a private 3-node cluster of
// nats-server 2.10. A direct get (the KV default) is answered by whichever replica hears it
// first, which may lag the leader or, after a restart, lack the value altogether (seen on
// 2.9.10); a plain get (STREAM.MSG.GET) is answered by the stream leader alone (nats-server's
// jsMsgGetRequest). The read cases watch which of the two the driver sends.
let cluster: NatsCluster;
let admin: NatsConnection;

beforeAll(async () => {
  cluster = await startNatsCluster({ binary: natsServerBinary('2.10').path });
  admin = await connect({ servers: [...cluster.urls] });
}, 90_000);

afterAll(async () => {
  await admin?.close();
  await cluster?.stop();
});

/** Counts the get requests sent for `prefix`'s streams, by kind, while `work` runs. */
async function countGets(prefix: string, work: () => Promise<void>) {
  const counts = { direct: 0, leader: 0 };
  const streams = [`KV_${prefix}_jobs`, `KV_${prefix}_aux`];
  const ours = (subject: string) => subject.split('.').some((token) => streams.includes(token));
  const count = (kind: keyof typeof counts) => (_: unknown, message: { subject: string }) => {
    if (ours(message.subject)) counts[kind] += 1;
  };
  const subscriptions = [
    admin.subscribe('$JS.API.DIRECT.GET.>', { callback: count('direct') }),
    admin.subscribe('$JS.API.STREAM.MSG.GET.*', { callback: count('leader') }),
  ];
  await admin.flush();
  try {
    await work();
    await admin.flush();
  } finally {
    for (const subscription of subscriptions) subscription.unsubscribe();
  }
  return counts;
}

/** Reads every kind of key the driver reads with a get: a step, a lease, a slot, a mark. */
async function readEverything(driver: Driver): Promise<void> {
  await driver.enqueue({ name: 'read' });
  const [job] = await driver.claim({
    queues: ['default'],
    workerId: 'w',
    visibilityTimeoutMs: 30_000,
  });
  if (job === undefined) throw new Error('nothing was claimed');
  const fence = { jobId: job.id, workerId: 'w', claim: job.claim };
  const step = {
    runId: job.runId,
    name: 's',
    status: 'completed',
    output: 1,
    attempts: 1,
    startedAt: 1,
    updatedAt: 2,
  } as const;
  await driver.steps.put(step, fence);
  expect(await driver.steps.get(job.runId, 's')).toMatchObject({ output: 1 });
  expect(await driver.leases.acquire('leader', 'a', 30_000)).toBe(true);
  expect(await driver.leases.acquire('leader', 'b', 30_000)).toBe(false);
  expect((await driver.leases.holder('leader'))?.holder).toBe('a');
  expect(await driver.leases.acquireSlot('key', 1, 'a', 30_000)).toBe(true);
  expect(await driver.marks.advance('cron', 5)).toBe(true);
  expect(await driver.marks.get('cron')).toBe(5);
  expect(await driver.ack(fence)).toBe(true);
}

/**
 * A connection on which, for each of `prefix`'s streams, the first stream info request goes
 * unanswered, and so does the first one after the stream's create was answered: as nats-server
 * 2.10 leaves one sent while a new stream is being placed, when the meta leader holds the
 * stream's assignment (so it no longer answers "not found") and the preferred peer does not yet
 * (so nobody answers). Answers the count of requests withheld.
 */
async function withholdingInfo(prefix: string) {
  const nc = await connect({ servers: [...cluster.urls] });
  const silent = `berth.test.silent.${randomUUID()}`;
  nc.subscribe(silent, { callback: () => {} });
  await nc.flush();
  /** Per stream: which withholdings are spent ('before' its create, 'after' it). */
  const spent = new Map<string, Set<'before' | 'after'>>();
  // The driver sends no info request of a stream while its create waits for the answer, so the
  // create's send marks the moment.
  const created = new Set<string>();
  let withheld = 0;
  rerouteRequests(nc, (subject) => {
    const [api, stream = ''] = subject.split(/\.(?=KV_)/);
    if (!stream.startsWith(`KV_${prefix}_`)) return undefined;
    if (api === '$JS.API.STREAM.CREATE') {
      created.add(stream);
      return undefined;
    }
    const moment = created.has(stream) ? 'after' : 'before';
    const done = spent.get(stream) ?? new Set();
    spent.set(stream, done);
    if (api !== '$JS.API.STREAM.INFO' || done.has(moment)) return undefined;
    done.add(moment);
    withheld += 1;
    return { to: silent };
  });
  return { nc, withheld: () => withheld };
}

async function dropStreams(prefix: string) {
  const jsm = await jetstreamManager(admin);
  for (const bucket of ['jobs', 'aux']) {
    await jsm.streams.delete(`KV_${prefix}_${bucket}`).catch(() => false);
  }
}

describe('nats driver buckets on a 3-node cluster of nats-server 2.10', () => {
  it('makes both buckets with 3 replicas and direct gets off, and reads every key from the stream leader', async () => {
    const prefix = freshPrefix();
    const driver = createNatsDriver({ servers: [...cluster.urls], prefix, replicas: 3 });
    try {
      const counts = await countGets(prefix, () => readEverything(driver));
      const jsm = await jetstreamManager(admin);
      for (const bucket of ['jobs', 'aux']) {
        const { config } = await jsm.streams.info(`KV_${prefix}_${bucket}`);
        expect(config).toMatchObject({ num_replicas: 3, allow_direct: false });
      }
      expect(counts.direct).toBe(0);
      expect(counts.leader).toBeGreaterThan(0);
    } finally {
      await driver.close();
      await dropStreams(prefix);
    }
  });

  it('reads a replicated bucket someone else made with direct gets on from the stream leader too', async () => {
    const prefix = freshPrefix();
    const kvm = new Kvm(jetstream(admin));
    for (const bucket of ['jobs', 'aux']) {
      await kvm.create(`${prefix}_${bucket}`, { replicas: 3, history: 1, allow_direct: true });
    }
    const driver = createNatsDriver({ servers: [...cluster.urls], prefix });
    try {
      const counts = await countGets(prefix, () => readEverything(driver));
      expect(counts.direct).toBe(0);
      expect(counts.leader).toBeGreaterThan(0);
    } finally {
      await driver.close();
      await dropStreams(prefix);
    }
  });

  it('a process whose stream info requests go unanswered while a fresh prefix is placed asks again and answers its first call within timeoutMs', async () => {
    const prefix = freshPrefix();
    const { nc, withheld } = await withholdingInfo(prefix);
    const driver = createNatsDriver({ connection: nc, prefix, replicas: 3, timeoutMs: 5_000 });
    try {
      await expect(driver.enqueue({ name: 'first' })).resolves.toHaveProperty('id');
      // Per stream: the ask whether it exists, and the first ask after it was made.
      expect(withheld()).toBe(4);
    } finally {
      await driver.close();
      await nc.close();
      await dropStreams(prefix);
    }
  });

  it('processes opening a fresh prefix with replicas: 3 at the same moment all answer their first calls', async () => {
    const prefix = freshPrefix();
    const servers = [...cluster.urls];
    const drivers = Array.from({ length: 5 }, () =>
      createNatsDriver({ servers, prefix, replicas: 3, timeoutMs: 5_000 }),
    );
    try {
      const answers = await Promise.allSettled(
        drivers.map((driver) => driver.enqueue({ name: 'first', idempotencyKey: 'one' })),
      );
      expect(answers.filter((answer) => answer.status === 'rejected')).toEqual([]);
      const ids = answers.map((answer) => (answer.status === 'fulfilled' ? answer.value.id : ''));
      expect(new Set(ids).size).toBe(1);
    } finally {
      await Promise.all(drivers.map((driver) => driver.close()));
      await dropStreams(prefix);
    }
  });
});
