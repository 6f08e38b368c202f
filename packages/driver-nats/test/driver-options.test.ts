import { randomUUID } from 'node:crypto';
import { serverUrl } from '@berth/test-servers';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNatsDriver } from '../src/index.js';
import { dropPrefix, freshPrefix, natsDriver } from './nats-factory.js';

let url: string;
let app: NatsConnection;

beforeAll(async () => {
  url = await serverUrl('nats');
  app = await connect({ servers: url });
});

afterAll(async () => {
  await app.close();
});

/** The stream's newest message on `subject`, or undefined when it holds none. */
async function lastOn(stream: string, subject: string) {
  const jsm = await jetstreamManager(app);
  const message = await jsm.streams
    .getMessage(stream, { last_by_subj: subject })
    .catch(() => undefined);
  return message ?? undefined;
}

describe('nats driver options and connections', () => {
  it("uses the app's own connection and leaves it open on close", async () => {
    const prefix = freshPrefix();
    const driver = createNatsDriver({ connection: app, prefix });
    try {
      const { id } = await driver.enqueue({ name: 'mine' });
      expect((await driver.get(id))?.name).toBe('mine');
      await driver.subscribe?.(['default'], () => {});
      await driver.close();
      expect(app.isClosed()).toBe(false);
      await app.flush();
    } finally {
      await dropPrefix(url, prefix);
    }
  });

  it('refuses a prefix NATS cannot name a stream with, and options out of range', () => {
    for (const prefix of ['', 'a.b', 'a b', 'a*', 'x'.repeat(65)]) {
      expect(() => createNatsDriver({ connection: app, prefix })).toThrow(/prefix/);
    }
    expect(() => createNatsDriver({ connection: app, servers: url })).toThrow(/servers/);
    expect(() => createNatsDriver({ maxPayloadBytes: 0 })).toThrow(/maxPayloadBytes/);
    expect(() => createNatsDriver({ replicas: 0 })).toThrow(/replicas/);
    expect(() => createNatsDriver({ timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => createNatsDriver({ deleteMarkerGraceMs: -1 })).toThrow(/deleteMarkerGraceMs/);
  });

  it('keeps everything in two file-stored buckets of the prefix, one value per key', async () => {
    const { driver, prefix, dispose } = await natsDriver();
    try {
      await driver.enqueue({ name: 'stored', idempotencyKey: 'k' });
      const jsm = await jetstreamManager(app);
      for (const bucket of ['jobs', 'aux']) {
        const { config } = await jsm.streams.info(`KV_${prefix}_${bucket}`);
        expect(config).toMatchObject({
          storage: 'file',
          num_replicas: 1,
          max_msgs_per_subject: 1,
          allow_direct: true,
          subjects: [`$KV.${prefix}_${bucket}.>`],
        });
      }
    } finally {
      await dispose();
    }
  });

  it('spills a large payload and result into parts, and a purge removes them with the job', async () => {
    const { driver, prefix, dispose } = await natsDriver();
    try {
      const payload = { blob: 'p'.repeat(200_000) };
      const result = { blob: 'r'.repeat(300_000) };
      const { id } = await driver.enqueue({ name: 'large', payload });
      const [job] = await driver.claim({
        queues: ['default'],
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
      });
      expect(job?.payload).toEqual(payload);
      await driver.ack({ jobId: id, workerId: 'w', claim: 1 }, { result });
      const done = await driver.get(id);
      expect(done?.result).toEqual(result);
      expect((await driver.list()).jobs[0]?.payload).toEqual(payload);
      const record = await lastOn(`KV_${prefix}_jobs`, `$KV.${prefix}_jobs.j.${id}`);
      expect(record?.data.length).toBeLessThan(4_096);
      expect(await lastOn(`KV_${prefix}_aux`, `$KV.${prefix}_aux.x.${id}.>`)).toBeDefined();
      expect(await driver.purge({ states: ['completed'], olderThan: Date.now() + 1 })).toBe(1);
      expect(await lastOn(`KV_${prefix}_aux`, `$KV.${prefix}_aux.x.${id}.>`)).toBeUndefined();
    } finally {
      await dispose();
    }
  });

  it('removes delete markers past their grace, never the stream tail, and a new process sees no purged row', async () => {
    const { driver, prefix, dispose } = await natsDriver({ deleteMarkerGraceMs: 0 });
    try {
      const answers = await driver.enqueueMany([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
      for (const answer of answers) await driver.cancel(answer.id);
      expect(await driver.purge({ states: ['cancelled'], olderThan: Date.now() + 1 })).toBe(3);
      // A second purge (after another write) removes the marker that was the stream's tail.
      await driver.enqueue({ name: 'later' });
      await driver.purge({ states: ['cancelled'], olderThan: Date.now() + 1 });
      for (const answer of answers) {
        expect(
          await lastOn(`KV_${prefix}_jobs`, `$KV.${prefix}_jobs.j.${answer.id}`),
        ).toBeUndefined();
      }
      const fresh = createNatsDriver({ connection: app, prefix });
      try {
        expect((await fresh.list()).jobs.map((job) => job.name)).toEqual(['later']);
      } finally {
        await fresh.close();
      }
    } finally {
      await dispose();
    }
  });

  it('a value in the jobs bucket that is not JSON is left out of the mirror, not fatal to it', async () => {
    const { driver, prefix, dispose } = await natsDriver();
    try {
      const { id } = await driver.enqueue({ name: 'before' });
      const kv = await new Kvm(jetstream(app)).open(`${prefix}_jobs`);
      const junk = randomUUID();
      await kv.put(`j.${junk}`, new TextEncoder().encode('not json'));
      const after = await driver.enqueue({ name: 'after' });
      expect((await driver.list()).jobs.map((job) => job.id)).toEqual([after.id, id]);
      expect(await driver.get(junk)).toBeUndefined();
      const claimed = await driver.claim({
        queues: ['default'],
        limit: 5,
        workerId: 'w',
        visibilityTimeoutMs: 1_000,
      });
      expect(claimed.map((job) => job.id)).toEqual([id, after.id]);
    } finally {
      await dispose();
    }
  });

  it('a fence claimed in one process settles from another whose mirror has not caught up', async () => {
    const { driver, prefix, dispose } = await natsDriver();
    const other = createNatsDriver({ connection: app, prefix });
    try {
      await other.stats();
      const { id } = await driver.enqueue({ name: 'handed-over' });
      const [job] = await driver.claim({
        queues: ['default'],
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
      });
      expect(job?.id).toBe(id);
      expect(await other.ack({ jobId: id, workerId: 'w', claim: 1 })).toBe(true);
      expect(await other.ack({ jobId: id, workerId: 'w', claim: 1 })).toBe(false);
      expect((await driver.get(id))?.state).toBe('completed');
    } finally {
      await other.close();
      await dispose();
    }
  });
});
