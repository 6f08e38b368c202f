import { type BerthError, isBerthError } from '@berth/core';
import {
  configFixProblem,
  type NatsCluster,
  natsServerBinary,
  startNatsCluster,
} from '@berth/test-servers';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNatsDriver } from '../src/index.js';
import { replicatesSafely } from '../src/servers.js';
import { freshPrefix } from './nats-factory.js';

// A private 3-node cluster of the installed nats-server 2.9 (Debian's 2.9.10), whose
// conditional writes to a replicated stream are not decided inside the stream's consensus.
let cluster: NatsCluster;
let admin: NatsConnection;
let version: string;

beforeAll(async () => {
  const binary = natsServerBinary('2.9');
  version = binary.version;
  // natsServerBinary('2.9') answers a 2.9.x; the fix landed in 2.9.21.
  if (Number(version.split('.')[2]) >= 21) {
    throw new Error(
      `these cases need a nats-server below 2.9.21; ${binary.path} is ${version}: set BERTH_NATS_2_9_BIN to one (Debian bookworm's nats-server is 2.9.10)`,
    );
  }
  cluster = await startNatsCluster({ binary: binary.path });
  admin = await connect({ servers: [...cluster.urls] });
}, 90_000);

afterAll(async () => {
  await admin?.close();
  await cluster?.stop();
});

async function refusal(call: Promise<unknown>): Promise<BerthError> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isBerthError(error, 'CONFIG_INVALID'))
    throw new Error(`expected CONFIG_INVALID, got ${String(error)}`);
  return error;
}

const streamsOf = async (prefix: string) => {
  const jsm = await jetstreamManager(admin);
  const names: string[] = [];
  for await (const name of jsm.streams.names()) if (name.includes(prefix)) names.push(name);
  return names;
};

describe('nats driver on a 3-node cluster of nats-server 2.9.10', () => {
  it('refuses replicas: 3 below 2.9.21 with CONFIG_INVALID saying why and which server version it needs, before it makes a bucket', async () => {
    const prefix = freshPrefix();
    const driver = createNatsDriver({ servers: [...cluster.urls], prefix, replicas: 3 });
    const error = await refusal(driver.enqueue({ name: 'twice?' }));
    expect(error.meta).toMatchObject({ option: 'replicas' });
    expect(error.detail).toContain(`nats-server ${version}`);
    expect(error.detail).toMatch(/outside its consensus/);
    expect(error.fix).toMatch(/nats-server 2\.9\.21 or later/);
    expect(configFixProblem('replicas', error.fix)).toBeUndefined();
    // Every later call answers the same; nothing was created meanwhile.
    expect((await refusal(driver.stats())).meta).toMatchObject({ option: 'replicas' });
    await driver.close();
    expect(await streamsOf(prefix)).toEqual([]);

    // The app's own connection: refused the same way, and left open.
    const own = createNatsDriver({ connection: admin, prefix, replicas: 3 });
    expect((await refusal(own.check())).meta).toMatchObject({ option: 'replicas' });
    await own.close();
    expect(admin.isClosed()).toBe(false);
  });

  it('refuses a prefix whose bucket someone else made with 3 replicas, even with replicas: 1', async () => {
    const prefix = freshPrefix();
    const kvm = new Kvm(jetstream(admin));
    await kvm.create(`${prefix}_aux`, { replicas: 3, history: 1 });
    try {
      const driver = createNatsDriver({ servers: [...cluster.urls], prefix });
      const error = await refusal(driver.enqueue({ name: 'twice?' }));
      expect(error.meta).toMatchObject({ option: 'prefix' });
      expect(error.detail).toContain(`KV_${prefix}_aux, which exists with 3 replicas`);
      expect(error.fix).toMatch(/nats-server 2\.9\.21 or later/);
      expect(configFixProblem('prefix', error.fix)).toBeUndefined();
      await driver.close();
    } finally {
      const jsm = await jetstreamManager(admin);
      for (const stream of await streamsOf(prefix)) await jsm.streams.delete(stream);
    }
  });

  it('serves replicas: 1 on the same cluster', async () => {
    const prefix = freshPrefix();
    const driver = createNatsDriver({ servers: [...cluster.urls], prefix });
    try {
      const { id } = await driver.enqueue({ name: 'single' });
      expect((await driver.get(id))?.state).toBe('ready');
      const jsm = await jetstreamManager(admin);
      const { config } = await jsm.streams.info(`KV_${prefix}_jobs`);
      expect(config.num_replicas).toBe(1);
    } finally {
      await driver.close();
      const jsm = await jetstreamManager(admin);
      for (const stream of await streamsOf(prefix)) await jsm.streams.delete(stream);
    }
  });
});

describe('which nats-server versions replicate the buckets safely', () => {
  it('2.9.21 and later do; 2.9.20 and earlier, and a version it cannot read, do not', () => {
    for (const version of ['2.9.21', '2.9.25', '2.10.0', '2.10.27', '2.11.0-RC.1', '3.0.0']) {
      expect(replicatesSafely(version)).toBe(true);
    }
    for (const version of ['2.9.20', '2.9.10', '2.8.4', '1.4.1', '', 'dev', undefined]) {
      expect(replicatesSafely(version)).toBe(false);
    }
  });
});
