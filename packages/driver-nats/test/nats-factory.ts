import { randomUUID } from 'node:crypto';
import type { DriverFactory } from '@berth/conformance';
import { type Driver, systemClock } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { openContext } from '../src/connect.js';
import type { NatsContext } from '../src/context.js';
import { createNatsDriver, type NatsDriverOptions } from '../src/index.js';
import { subjectsFor } from '../src/subjects.js';

/** A prefix no other case uses: each case sees only its own streams. */
export const freshPrefix = (): string => `berth-test-${randomUUID().slice(0, 12)}`;

const admins = new Map<string, Promise<NatsConnection>>();

/** One connection per server for the tests' own housekeeping (dropping a prefix's streams). */
function admin(url: string): Promise<NatsConnection> {
  let pending = admins.get(url);
  if (pending === undefined) {
    pending = connect({ servers: url, maxReconnectAttempts: -1 });
    admins.set(url, pending);
  }
  return pending;
}

/** Deletes every stream of `prefix` (a missing one is fine). */
export async function dropPrefix(url: string, prefix: string): Promise<void> {
  const jsm = await jetstreamManager(await admin(url));
  await Promise.all(
    [`KV_${prefix}_jobs`, `KV_${prefix}_aux`, `berth_${prefix}_lifecycle`].map((stream) =>
      jsm.streams.delete(stream).catch(() => false),
    ),
  );
}

/** A driver on its own prefix over its own connection; dispose closes it and drops its streams. */
export async function natsDriver(
  options: Omit<NatsDriverOptions, 'servers' | 'prefix' | 'connection'> = {},
  prefix = freshPrefix(),
): Promise<{ driver: Driver; url: string; prefix: string; dispose: () => Promise<void> }> {
  const url = await serverUrl('nats');
  const driver = createNatsDriver({ ...options, servers: url, prefix });
  return {
    driver,
    url,
    prefix,
    dispose: async () => {
      await driver.close();
      await dropPrefix(url, prefix);
    },
  };
}

export const natsFactory: DriverFactory = async ({ clock, hooks, lifecycleRetention }) => {
  const { driver, url, prefix, dispose } = await natsDriver({ clock, hooks, lifecycleRetention });
  return {
    driver,
    // Its own connection over the same streams: another process of the deployment.
    sibling: async (context) => createNatsDriver({ ...context, servers: url, prefix }),
    dispose,
  };
};

/**
 * The driver's own context on `prefix`, on a connection of its own: for tests that call one
 * operation module directly, or reach under it to the buckets. Its mirror keeps purge markers for
 * `markerGraceMs` (default an hour: no replay unless the test wants one).
 */
export function openTestContext(
  url: string,
  prefix: string,
  markerGraceMs = 3_600_000,
  lifecycleRetention = 10_000,
): Promise<NatsContext> {
  return openContext({
    servers: url,
    connection: undefined,
    subjects: subjectsFor(prefix),
    clock: systemClock,
    hooks: {},
    replicas: 1,
    timeoutMs: 10_000,
    markerGraceMs,
    lifecycleRetention,
  });
}
