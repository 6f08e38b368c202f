import type { DriverFactory, SiblingContext } from '@berth/conformance';
import { privateServerOnce, proxiedInstances } from '@berth/test-servers';
import { afterAll } from 'vitest';
import { createRedisDriver } from '../src/index.js';
import { freshPrefix } from './redis-factory.js';

/**
 * The kit's `serverFactory`: drivers on a fresh prefix of a PRIVATE redis-server of this test
 * file's own (append-only file fsynced on every write), each instance through a proxy of its
 * own, so group restart may restart the server and cut one instance off. Redis keeps nothing
 * for late readers: the replay grace is 0. `serverStart` starts the server (the kit calls it in
 * a hook before group restart: no case's timeout pays for it); it stops after the file.
 */
export function redisServerFactory(): {
  serverFactory: DriverFactory;
  serverStart: () => Promise<void>;
} {
  const server = privateServerOnce('redis');
  afterAll(() => server.dispose());
  const serverStart = async () => {
    await server.get();
  };
  const serverFactory: DriverFactory = async ({ clock, hooks, lifecycleRetention }) => {
    const instances = proxiedInstances(await server.get(), 0);
    const prefix = freshPrefix();
    const open = (context: SiblingContext) =>
      instances.open((url) => createRedisDriver({ ...context, url, prefix }));
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
