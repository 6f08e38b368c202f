import { startNats } from './nats.ts';
import { startNatsCluster2_10 } from './nats-cluster.ts';
import { startPg } from './pg.ts';
import { startPgAsyncCommit } from './pg-async-commit.ts';
import { startRedis } from './redis.ts';
import { startRedisCluster3x2 } from './redis-cluster.ts';
import { startRedisSentinel } from './redis-sentinel.ts';
import type { Backend, ChaosServer, ServerOptions } from './server.ts';

export type { Backend, ChaosServer, ServerOptions } from './server.ts';

/**
 * What `pnpm chaos` runs by default. `pnpm test` runs the ci profile through
 * `test/ci-<backend>.test.ts`; the redis cluster has no such file, so only `pnpm chaos` runs it.
 */
export const BACKENDS: readonly Backend[] = ['pg', 'redis', 'nats', 'redis-cluster'];
/** Every backend `--backend` takes: the cluster has a test of its own (test/nats-cluster.test.ts). */
export const ALL_BACKENDS: readonly Backend[] = [
  ...BACKENDS,
  'nats-cluster',
  'pg-async-commit',
  'redis-sentinel',
  'redis-sentinel-partition',
];

export function startServer(backend: Backend, options: ServerOptions = {}): Promise<ChaosServer> {
  if (backend === 'pg') return startPg(options);
  if (backend === 'redis') return startRedis(options);
  if (backend === 'nats-cluster') return startNatsCluster2_10();
  if (backend === 'redis-cluster') return startRedisCluster3x2();
  if (backend === 'pg-async-commit') return startPgAsyncCommit();
  if (backend === 'redis-sentinel' || backend === 'redis-sentinel-partition') {
    return startRedisSentinel({ backend, durability: options.durability ?? true });
  }
  return startNats(options);
}
