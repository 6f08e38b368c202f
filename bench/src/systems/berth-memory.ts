import { berthDriverLoopRunner, DRIVER_LOOP_SETTINGS } from './berth-driver-loop.ts';
import { BERTH_SETTINGS, berthRuntimeRunner } from './berth-runtime.ts';
import type { SystemDefinition } from './types.ts';

const openDriver = async () => (await import('@berth/driver-memory')).createMemoryDriver();

export const berthMemory: SystemDefinition = {
  name: 'berth-memory',
  role: 'berth',
  server: 'memory',
  workloads: ['burn20k', 'burn100k', 'bulk', 'latency', 'mixed'],
  settings: BERTH_SETTINGS,
  available: () => true,
  open: async (task) => berthRuntimeRunner(await openDriver(), task.berthConcurrency),
};

export const berthMemoryDriver: SystemDefinition = {
  name: 'berth-memory-driver',
  role: 'berth',
  server: 'memory',
  workloads: ['burn20k', 'burn100k'],
  settings: DRIVER_LOOP_SETTINGS,
  available: () => true,
  open: async (task) => berthDriverLoopRunner(await openDriver(), task.driverLoops),
};
