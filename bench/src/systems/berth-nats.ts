import { prefixFor } from '../naming.ts';
import type { ChildTask } from '../protocol.ts';
import { BERTH_SETTINGS, berthRuntimeRunner } from './berth-runtime.ts';
import type { SystemDefinition } from './types.ts';

async function openDriver(task: ChildTask) {
  const { createNatsDriver } = await import('@berth/driver-nats');
  return createNatsDriver({ servers: task.urls.nats, prefix: prefixFor(task.tag) });
}

/** Berth on NATS JetStream through its public API. NATS has no peer here: its floor is the bar. */
export const berthNats: SystemDefinition = {
  name: 'berth-nats',
  role: 'berth',
  server: 'nats',
  floor: 'nats-floor',
  workloads: ['burn20k', 'burn100k', 'bulk', 'latency', 'mixed'],
  settings: BERTH_SETTINGS,
  available: () => true,
  open: async (task) => berthRuntimeRunner(await openDriver(task), task.berthConcurrency),
};
