import { startNats } from './nats.ts';
import { startNatsCluster2_10 } from './nats-cluster.ts';
import { startPg } from './pg.ts';
import { startRedis } from './redis.ts';
import { startRedisCluster3x2 } from './redis-cluster.ts';
import type { Backend, ChaosServer } from './server.ts';

export type { Backend, ChaosServer } from './server.ts';

/**
 * What `pnpm chaos` runs by default. `pnpm test` runs the ci profile through
 * `test/ci-<backend>.test.ts`; the redis cluster has no such file, so only `pnpm chaos` runs it.
 */
export const BACKENDS: readonly Backend[] = ['pg', 'redis', 'nats', 'redis-cluster'];
/** Every backend `--backend` takes: the cluster has a test of its own (test/nats-cluster.test.ts). */
export const ALL_BACKENDS: readonly Backend[] = [...BACKENDS, 'nats-cluster'];

export function startServer(backend: Backend): Promise<ChaosServer> {
  if (backend === 'pg') return startPg();
  if (backend === 'redis') return startRedis();
  if (backend === 'nats-cluster') return startNatsCluster2_10();
  if (backend === 'redis-cluster') return startRedisCluster3x2();
  return startNats();
}
