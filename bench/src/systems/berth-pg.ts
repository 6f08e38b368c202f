import { schemaFor } from '../naming.ts';
import type { ChildTask } from '../protocol.ts';
import { berthDriverLoopRunner, DRIVER_LOOP_SETTINGS } from './berth-driver-loop.ts';
import { BERTH_SETTINGS, berthRuntimeRunner } from './berth-runtime.ts';
import { analyzeSchema } from './pg-admin.ts';
import type { SystemDefinition } from './types.ts';

async function openDriver(task: ChildTask) {
  const { createPgDriver } = await import('@berth/driver-pg');
  const schema = schemaFor(task.tag);
  const driver = createPgDriver({ connectionString: task.urls.pg, schema });
  await driver.migrate();
  return { driver, analyze: () => analyzeSchema(task.urls.pg, schema) };
}

export const berthPg: SystemDefinition = {
  name: 'berth-pg',
  role: 'berth',
  server: 'pg',
  floor: 'pg-floor',
  workloads: ['burn20k', 'burn20k-analyzed', 'burn100k', 'bulk', 'latency', 'mixed'],
  settings: `${BERTH_SETTINGS}; pg pool default (10)`,
  available: () => true,
  async open(task) {
    const { driver, analyze } = await openDriver(task);
    return berthRuntimeRunner(driver, task.berthConcurrency, { analyze });
  },
};

export const berthPgDriver: SystemDefinition = {
  name: 'berth-pg-driver',
  role: 'berth',
  server: 'pg',
  floor: 'pg-floor',
  workloads: ['burn20k', 'burn20k-analyzed', 'burn100k'],
  settings: DRIVER_LOOP_SETTINGS,
  available: () => true,
  async open(task) {
    const { driver, analyze } = await openDriver(task);
    return berthDriverLoopRunner(driver, task.driverLoops, { analyze });
  },
};
