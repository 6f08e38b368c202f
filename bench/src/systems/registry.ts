import { natsFloor } from '../floors/nats-floor.ts';
import { pgFloor } from '../floors/pg-floor.ts';
import { redisFloor } from '../floors/redis-floor.ts';
import { berthMemory, berthMemoryDriver } from './berth-memory.ts';
import { berthNats } from './berth-nats.ts';
import { berthPg, berthPgDriver } from './berth-pg.ts';
import { berthRedis, berthRedisDriver } from './berth-redis.ts';
import { bullmq } from './bullmq.ts';
import { graphileWorker, graphileWorkerBatched } from './graphile-worker.ts';
import { pgBoss } from './pg-boss.ts';
import type { SystemDefinition } from './types.ts';

/** Every system, in the order a round runs them (Berth next to the peers of its server). */
export const SYSTEMS: readonly SystemDefinition[] = [
  berthMemory,
  berthMemoryDriver,
  berthPg,
  berthPgDriver,
  graphileWorker,
  graphileWorkerBatched,
  pgBoss,
  pgFloor,
  berthRedis,
  berthRedisDriver,
  bullmq,
  redisFloor,
  berthNats,
  natsFloor,
];

export function systemNamed(name: string): SystemDefinition {
  const found = SYSTEMS.find((system) => system.name === name);
  if (found === undefined) {
    throw new Error(`no system "${name}"; known: ${SYSTEMS.map((s) => s.name).join(', ')}`);
  }
  return found;
}
