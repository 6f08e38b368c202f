// SLOT: berth-nats. It activates by itself once `packages/driver-nats` exists in the workspace;
// until then `available()` is false and the bench skips it. When the driver lands, check that
// `createNatsDriver({ servers, prefix })` is still its shape and that closing it (or its
// `dispose`, if it has one) removes the prefix's streams and buckets; add `@berth/driver-nats` to
// this package's dependencies and import it by name instead of by path.

import { existsSync } from 'node:fs';
import type { Driver } from '@berth/core';
import type { ChildTask } from '../protocol.ts';
import { BERTH_SETTINGS, berthRuntimeRunner } from './berth-runtime.ts';
import { prefixFor } from './redis-admin.ts';
import type { SystemDefinition } from './types.ts';

const PACKAGE = new URL('../../../packages/driver-nats/', import.meta.url);

interface NatsDriverModule {
  createNatsDriver(options: { servers: string; prefix: string }): Driver & {
    dispose?: () => Promise<void>;
  };
}

async function openDriver(task: ChildTask) {
  const entry = new URL('src/index.ts', PACKAGE).href;
  const { createNatsDriver } = (await import(entry)) as NatsDriverModule;
  const driver = createNatsDriver({ servers: task.urls.nats, prefix: prefixFor(task.tag) });
  const close = driver.close.bind(driver);
  // Closing also drops what the run created, when the driver offers a way to.
  return Object.assign(driver, {
    close: async () => {
      await driver.dispose?.();
      await close();
    },
  });
}

export const berthNats: SystemDefinition = {
  name: 'berth-nats',
  role: 'berth',
  server: 'nats',
  workloads: ['burn20k', 'burn100k', 'bulk', 'latency', 'mixed'],
  settings: BERTH_SETTINGS,
  available: () => existsSync(new URL('package.json', PACKAGE)),
  open: async (task) => berthRuntimeRunner(await openDriver(task), task.berthConcurrency),
};
