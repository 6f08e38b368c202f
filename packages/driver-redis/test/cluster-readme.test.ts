import {
  type RedisCluster,
  readmeBlock,
  runSnippet,
  snippetTypeErrors,
  splitImports,
  startRedisCluster,
} from '@berth/test-servers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRedisDriver, type RedisDriverOptions } from '../src/index.js';
import { dropClusterPrefix } from './cluster-factory.js';
import { freshPrefix } from './redis-factory.js';

const block = (): string => readmeBlock(new URL('../README.md', import.meta.url), 'cluster');

let cluster: RedisCluster;

beforeAll(async () => {
  cluster = await startRedisCluster();
}, 90_000);

afterAll(async () => {
  await cluster?.stop();
});

it('the README cluster example type-checks as written', () => {
  const errors = snippetTypeErrors(block(), {
    tsconfig: new URL('../tsconfig.json', import.meta.url),
    at: new URL('./cluster-readme.snippet.ts', import.meta.url),
  });
  expect(errors).toEqual([]);
}, 60_000);

it('the README cluster example runs as written on a cluster of 3 masters and 3 replicas', async () => {
  const { imports, body } = splitImports(block());
  expect(imports).toEqual(["import { createRedisDriver } from '@berth/driver-redis';"]);
  // Each prefix the snippet names becomes one of its own, so it never meets another test's keys.
  const prefixes = new Map<string, string>();
  const printed: unknown[][] = [];
  try {
    await runSnippet(body, {
      createRedisDriver: (options: RedisDriverOptions) => {
        const prefix = `${freshPrefix()}-${options.prefix ?? 'berth'}`;
        prefixes.set(options.prefix ?? 'berth', prefix);
        return createRedisDriver({ ...options, prefix });
      },
      process: { env: { REDIS_CLUSTER_NODES: cluster.nodes.map((n) => n.address).join(',') } },
      console: { log: (...args: unknown[]) => printed.push(args) },
    });
  } finally {
    for (const prefix of prefixes.values()) await dropClusterPrefix(cluster, prefix);
  }
  expect([...prefixes.keys()]).toEqual(['billing', 'mail']);
  expect(printed).toEqual([['ready']]);
});
