import { prefixFor } from '../naming.ts';
import type { ChildTask } from '../protocol.ts';
import { berthDriverLoopRunner, DRIVER_LOOP_SETTINGS } from './berth-driver-loop.ts';
import { BERTH_SETTINGS, berthRuntimeRunner } from './berth-runtime.ts';
import type { SystemDefinition } from './types.ts';

async function openDriver(task: ChildTask) {
  const { createRedisDriver } = await import('@berth/driver-redis');
  return createRedisDriver({ url: task.urls.redis, prefix: prefixFor(task.tag) });
}

export const berthRedis: SystemDefinition = {
  name: 'berth-redis',
  role: 'berth',
  server: 'redis',
  floor: 'redis-floor',
  workloads: ['burn20k', 'burn100k', 'bulk', 'latency', 'mixed'],
  settings: BERTH_SETTINGS,
  available: () => true,
  open: async (task) => berthRuntimeRunner(await openDriver(task), task.berthConcurrency),
};

export const berthRedisDriver: SystemDefinition = {
  name: 'berth-redis-driver',
  role: 'berth',
  server: 'redis',
  floor: 'redis-floor',
  workloads: ['burn20k', 'burn100k'],
  settings: DRIVER_LOOP_SETTINGS,
  available: () => true,
  open: async (task) => berthDriverLoopRunner(await openDriver(task), task.driverLoops),
};
