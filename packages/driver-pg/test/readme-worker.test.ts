import { createClient, createWorker, defineJob } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { readmeWorkerQuickStart } from '@berth/test-servers/readme-worker';
import { createPgDriver, type PgDriverOptions } from '../src/index.js';
import { dropSchema, freshSchema } from './pg-factory.js';

readmeWorkerQuickStart({
  testFile: import.meta.url,
  steps: 'migrate, define, enqueue, work, stop',
  driverImport: "import { createPgDriver } from '@berth/driver-pg';",
  core: { createClient, createWorker, defineJob },
  // The snippet runs on a schema of its own, so it can never meet another test's tables.
  async sandbox() {
    const schema = freshSchema();
    const env = { DATABASE_URL: await serverUrl('pg') };
    return {
      bindings: {
        createPgDriver: (options: PgDriverOptions) => createPgDriver({ ...options, schema }),
        process: { env },
      },
      dispose: () => dropSchema(schema),
    };
  },
});
