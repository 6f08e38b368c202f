import type { DriverFactory, SiblingContext } from '@berth/conformance';
import { privateServerOnce, proxiedInstances } from '@berth/test-servers';
import { afterAll } from 'vitest';
import { createRedisDriver } from '../src/index.js';
import { freshPrefix } from './redis-factory.js';

/**
 * The kit's `serverFactory`: drivers on a fresh prefix of a PRIVATE redis-server of this test
 * file's own (append-only file fsynced on every write; started by the first case, stopped after
 * the file), each instance through a proxy of its own, so group restart may restart the server
 * and cut one instance off. Redis keeps nothing for late readers: the replay grace is 0.
 */
export function redisServerFactory(): DriverFactory {
  const server = privateServerOnce('redis');
  afterAll(() => server.dispose());
  return async ({ clock, hooks }) => {
    const instances = proxiedInstances(await server.get(), 0);
    const prefix = freshPrefix();
    const open = (context: SiblingContext) =>
      instances.open((url) => createRedisDriver({ ...context, url, prefix }));
    const driver = await open({ clock, hooks });
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
}
