import { type DriverFactory, describeDriver, TOPOLOGY_DEEP_ONLY } from '@berth/conformance';
import {
  dropRedisPrefix,
  kitBudget,
  PRIVATE_START_HOOK_MS,
  type RedisReplicaSet,
  startRedisReplicaSet,
} from '@berth/test-servers';
import { afterAll, beforeAll } from 'vitest';
import { createRedisDriver } from '../src/index.js';
import { memoryFactory } from './memory-factory.js';
import { freshPrefix } from './redis-factory.js';
import { redisServerFactory } from './server-factory.js';

/**
 * The kit (at a topology's CI budget: see kitBudget) against drivers that reach their master through Redis Sentinel, with
 * `durability` (every write under a WAIT a replica answers): one private replica set for the
 * file, a fresh prefix per case. Group `restart` restarts a single private server
 * (server-factory.ts), as in conformance.test.ts: failing a replica set over is
 * sentinel.test.ts's part. The replica set starts in a hook of its own (the file's setup), so
 * no case's timeout pays for it.
 */
let started: Promise<RedisReplicaSet> | undefined;
beforeAll(async () => {
  started ??= startRedisReplicaSet();
  await started;
}, PRIVATE_START_HOOK_MS);
afterAll(async () => {
  const set = await started?.catch(() => undefined);
  await set?.dispose();
});

const sentinelFactory: DriverFactory = async ({ clock, hooks, lifecycleRetention }) => {
  started ??= startRedisReplicaSet();
  const set = await started;
  const prefix = freshPrefix();
  const open = (context: Parameters<typeof createRedisDriver>[0]) =>
    createRedisDriver({
      ...context,
      sentinels: set.sentinelAddresses,
      name: set.name,
      prefix,
      durability: { replicas: 1, timeoutMs: 1_000 },
    });
  const driver = open({ clock, hooks, lifecycleRetention });
  return {
    driver,
    sibling: async (context) => open(context),
    dispose: async () => {
      await driver.close();
      await dropRedisPrefix(`redis://127.0.0.1:${await set.masterPort()}`, prefix);
    },
  };
};

// The redis kit ran whole on one server: this one repeats it through Sentinel at its CI budget.
describeDriver('redis through sentinel, durable', sentinelFactory, {
  reference: memoryFactory,
  ...redisServerFactory(),
  ...kitBudget('topology', TOPOLOGY_DEEP_ONLY),
});
