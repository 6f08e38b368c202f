import type { DriverFactory, SiblingContext } from '@berth/conformance';
import { privateServerOnce, proxiedInstances } from '@berth/test-servers';
import { afterAll } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { freshSchema } from './pg-factory.js';

/**
 * The kit's `serverFactory`: drivers on a fresh schema of a PRIVATE postgres cluster of this test
 * file's own, each instance through a proxy of its own, so group restart may restart the server
 * and cut one instance off. Postgres keeps nothing for late readers: the replay grace is 0.
 * `serverStart` runs initdb and starts it (the kit calls it in a hook before group restart: no
 * case's timeout pays for it); it stops after the file.
 */
export function pgServerFactory(): {
  serverFactory: DriverFactory;
  serverStart: () => Promise<void>;
} {
  const server = privateServerOnce('pg');
  afterAll(() => server.dispose());
  const serverStart = async () => {
    await server.get();
  };
  const serverFactory: DriverFactory = async ({ clock, hooks, lifecycleRetention }) => {
    const instances = proxiedInstances(await server.get(), 0);
    const schema = freshSchema();
    const open = (context: SiblingContext) =>
      instances.open((url) => createPgDriver({ ...context, connectionString: url, schema }));
    const driver = await open({ clock, hooks, lifecycleRetention });
    try {
      await driver.migrate();
    } catch (error) {
      await driver.close();
      await instances.close();
      throw error;
    }
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
