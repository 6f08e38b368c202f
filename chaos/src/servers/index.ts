import { startNats } from './nats.ts';
import { startPg } from './pg.ts';
import { startRedis } from './redis.ts';
import type { Backend, ChaosServer } from './server.ts';

export type { Backend, ChaosServer } from './server.ts';

export const BACKENDS: readonly Backend[] = ['pg', 'redis', 'nats'];

export function startServer(backend: Backend): Promise<ChaosServer> {
  if (backend === 'pg') return startPg();
  if (backend === 'redis') return startRedis();
  return startNats();
}
