import type { DriverFactory, SiblingContext } from '@berth/conformance';
import { privateServerOnce, proxiedInstances } from '@berth/test-servers';
import { afterAll } from 'vitest';
import { createNatsDriver } from '../src/index.js';
import { freshPrefix } from './nats-factory.js';

/** The replay grace group restart runs with: small, so its outage and its waits stay short. */
const GRACE_MS = 1_500;

/**
 * The kit's `serverFactory`: drivers on a fresh prefix of a PRIVATE nats-server of this test
 * file's own, each instance through a proxy of its own, so group restart may restart the server
 * and cut one instance off. `serverStart` starts the server (the kit calls it in a hook before
 * group restart: no case's timeout pays for it); it stops after the file.
 */
export function natsServerFactory(): {
  serverFactory: DriverFactory;
  serverStart: () => Promise<void>;
} {
  const server = privateServerOnce('nats');
  afterAll(() => server.dispose());
  const serverStart = async () => {
    await server.get();
  };
  const serverFactory: DriverFactory = async ({ clock, hooks, lifecycleRetention }) => {
    const instances = proxiedInstances(await server.get(), GRACE_MS);
    const prefix = freshPrefix();
    const open = (context: SiblingContext) =>
      instances.open((url) =>
        createNatsDriver({ ...context, servers: url, prefix, deleteMarkerGraceMs: GRACE_MS }),
      );
    const driver = await open({ clock, hooks, lifecycleRetention });
    return {
      driver,
      sibling: open,
      server: instances.control,
      dispose: async () => {
        await driver.close();
        await instances.close();
      },
    };
  };
  return { serverFactory, serverStart };
}
